// Package livecatalog looks instance types up in the clouds' own APIs: EC2 DescribeInstanceTypes through
// aws-sdk-go-v2, and the Azure Resource SKUs list through an azcore pipeline. Its [Catalog] implements
// sizing.Catalog on top of the embedded catalog, so the planner never knows (and never imports) it.
//
// # Modes
//
//   - [Embedded]: the embedded catalog only; no network call is ever made.
//   - [PreferEmbedded]: the embedded catalog first; the live list is fetched only for a name the embedded
//     catalog lacks. If that fetch fails, the lookup falls back to the embedded catalog (which then reports
//     the name as unknown) and the lookup's warnings name the cause.
//   - [Live]: the live list first (the region's exact figures). A failed fetch is an error of every lookup
//     that needed it. A name the live list lacks (not offered in that region or location, or restricted for
//     the subscription) falls back to the embedded row with a warning.
//
// Clouds without a configured live source (GCP always) are served by the embedded catalog in every mode.
//
// # One bounded call per run
//
// Each cloud's list is fetched at most once per Catalog value: the first lookup that needs it starts the
// fetch, concurrent lookups wait for the same fetch, and the result (rows or failure) is kept for the
// Catalog's life (one provider run). The fetch has a timeout (default 20 s) covering every page and retry;
// a waiting caller whose context ends returns at once with its context's error.
//
// # Refreshing the embedded catalog
//
// [Dump] writes a cloud's live list as a TSV in the embedded catalog's columns, with the same clients:
//
//	go run ./internal/livecatalog/cmd/livedump -cloud aws -region us-east-1 -out aws-live.tsv
//	go run ./internal/livecatalog/cmd/livedump -cloud azure -location eastus -out azure-live.tsv
//
// The catalog generator merges such files: `go run ./gen -live aws=live/aws.tsv -live azure=live/azure.tsv`
// from internal/planner/catalog adds the types the shared tables lack and reports every field where a
// shared row differs from the live one (see internal/planner/catalog/gen).
//
// # Warnings
//
// sizing.Catalog returns errors only. [Catalog.Lookup] and [Catalog.List] return the same results as
// InstanceType and InstanceTypes plus warnings (plain sentences naming the cause); the provider calls them
// when the catalog it holds is a *Catalog and reports each warning on the attribute that needed the lookup.
// Failures in [Live] mode are *[Error] values. Messages never carry credentials, tokens, request
// signatures or subscription IDs.
package livecatalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/burst"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// Mode says where instance types come from.
type Mode string

// The catalog sources, as the provider's catalog_source attribute spells them.
const (
	Embedded       Mode = "embedded"
	PreferEmbedded Mode = "prefer_embedded"
	Live           Mode = "live"
)

// Modes lists every Mode, in the order used in docs.
var Modes = []Mode{Embedded, PreferEmbedded, Live}

// DefaultTimeout bounds one cloud's fetch, all pages and retries included.
const DefaultTimeout = 20 * time.Second

// Source fetches every instance type of one cloud from a live API.
type Source interface {
	// Cloud is the cloud the source lists.
	Cloud() catalog.Cloud
	// Describe names the API and region or location, for messages ("ec2:DescribeInstanceTypes in
	// us-east-1"). It carries nothing sensitive.
	Describe() string
	// Fetch lists the types. unavailable maps names (Azure: lower-cased) that the API lists but that
	// cannot be used there to the reason.
	Fetch(ctx context.Context) (types []catalog.InstanceType, unavailable map[string]string, err error)
}

// Error is a failed live fetch: the cloud, the API it asked and the cause.
type Error struct {
	Cloud  catalog.Cloud
	Source string // Source.Describe
	Err    error
}

// Error returns, for example, `live aws catalog (ec2:DescribeInstanceTypes in us-east-1) failed: timed
// out after 20s`, without a full stop at the end (an API message's own is dropped), so callers can add
// their own punctuation.
func (e *Error) Error() string {
	return fmt.Sprintf("live %s catalog (%s) failed: %s", e.Cloud, e.Source, strings.TrimRight(fmt.Sprint(e.Err), ". "))
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Catalog is a sizing.Catalog that combines the embedded catalog with live sources according to its Mode.
// It is safe for concurrent use.
type Catalog struct {
	mode     Mode
	timeout  time.Duration
	embedded sizing.Catalog
	clouds   map[catalog.Cloud]*fetch
}

var _ sizing.Catalog = (*Catalog)(nil)

// New returns a catalog in mode over the given sources (at most one per cloud; nil entries are skipped).
// timeout ≤ 0 means DefaultTimeout. In Embedded mode the sources are never called.
func New(mode Mode, timeout time.Duration, sources ...Source) (*Catalog, error) {
	if !slices.Contains(Modes, mode) {
		return nil, fmt.Errorf("unknown catalog source %q", mode)
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	c := &Catalog{mode: mode, timeout: timeout, embedded: sizing.EmbeddedCatalog(), clouds: map[catalog.Cloud]*fetch{}}
	for _, s := range sources {
		if s == nil {
			continue
		}
		if _, dup := c.clouds[s.Cloud()]; dup {
			return nil, fmt.Errorf("two live sources for %s", s.Cloud())
		}
		c.clouds[s.Cloud()] = &fetch{src: s}
	}
	return c, nil
}

// Mode returns the catalog's mode.
func (c *Catalog) Mode() Mode { return c.mode }

// live returns the fetch of cloud, or nil when the catalog makes no live call for it.
func (c *Catalog) live(cloud catalog.Cloud) *fetch {
	if c.mode == Embedded {
		return nil
	}
	return c.clouds[cloud]
}

// InstanceType implements sizing.Catalog: Lookup without its warnings.
func (c *Catalog) InstanceType(ctx context.Context, cloud catalog.Cloud, name string) (catalog.InstanceType, error) {
	it, _, err := c.Lookup(ctx, cloud, name)
	return it, err
}

// Lookup returns the named type of cloud and the lookup's warnings (see the package documentation for
// each mode). A name known nowhere gives an error wrapping a *catalog.NotFoundError; a failed fetch in Live
// mode gives an *Error.
func (c *Catalog) Lookup(ctx context.Context, cloud catalog.Cloud, name string) (catalog.InstanceType, []string, error) {
	f := c.live(cloud)
	if f == nil {
		it, err := c.embedded.InstanceType(ctx, cloud, name)
		return it, nil, err
	}
	if c.mode == PreferEmbedded {
		it, err := c.embedded.InstanceType(ctx, cloud, name)
		var nf *catalog.NotFoundError
		if err == nil || !errors.As(err, &nf) {
			return it, nil, err
		}
		snap, ferr := f.get(ctx, c.timeout)
		if ferr != nil {
			return catalog.InstanceType{}, []string{fallbackWarning(ferr)},
				fmt.Errorf("%w; the live lookup that could have found it failed (%v)", err, ferr)
		}
		if it, ok := snap.find(cloud, name); ok {
			return it, nil, nil
		}
		return catalog.InstanceType{}, nil, snap.notFound(err, name)
	}
	snap, ferr := f.get(ctx, c.timeout)
	if ferr != nil {
		return catalog.InstanceType{}, nil, ferr
	}
	if it, ok := snap.find(cloud, name); ok {
		return it, nil, nil
	}
	it, err := c.embedded.InstanceType(ctx, cloud, name)
	if err != nil {
		return catalog.InstanceType{}, nil, snap.notFound(err, name)
	}
	return it, []string{fmt.Sprintf("%s is not offered by %s%s; its figures come from the embedded catalog (%s).",
		it.Name, snap.where, snap.reason(name), c.embedded.Date())}, nil
}

// InstanceTypes implements sizing.Catalog: List without its warnings.
func (c *Catalog) InstanceTypes(ctx context.Context, cloud catalog.Cloud) ([]catalog.InstanceType, error) {
	ts, _, err := c.List(ctx, cloud)
	return ts, err
}

// List returns every type of cloud, sorted by name, and the warnings of the listing. PreferEmbedded: the
// embedded rows plus the live-only ones (a failed fetch leaves the embedded rows and a warning). Live: the
// live rows (a failed fetch is an *Error).
func (c *Catalog) List(ctx context.Context, cloud catalog.Cloud) ([]catalog.InstanceType, []string, error) {
	base, err := c.embedded.InstanceTypes(ctx, cloud)
	f := c.live(cloud)
	if err != nil || f == nil {
		return base, nil, err
	}
	snap, ferr := f.get(ctx, c.timeout)
	if ferr != nil {
		if c.mode == Live {
			return nil, nil, ferr
		}
		return base, []string{fallbackWarning(ferr)}, nil
	}
	if c.mode == Live {
		return slices.Clone(snap.types), nil, nil
	}
	seen := make(map[string]bool, len(base))
	for _, it := range base {
		seen[snap.key(it.Name)] = true
	}
	out := base
	for _, it := range snap.types {
		if !seen[snap.key(it.Name)] {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b catalog.InstanceType) int { return strings.Compare(a.Name, b.Name) })
	return out, nil, nil
}

// CreditBudget implements sizing.Catalog. Budgets come from the embedded burst tables, by name, in every
// mode: no cloud API publishes them.
func (c *Catalog) CreditBudget(ctx context.Context, cloud catalog.Cloud, name string) (burst.Budget, bool, error) {
	return c.embedded.CreditBudget(ctx, cloud, name)
}

// Date implements sizing.Catalog: the embedded catalog's date (live rows are as of the run).
func (c *Catalog) Date() string { return c.embedded.Date() }

// Sources implements sizing.Catalog: the embedded attribution, plus the live source of cloud when the mode
// uses one.
func (c *Catalog) Sources(cloud catalog.Cloud) string {
	s := c.embedded.Sources(cloud)
	if f := c.live(cloud); f != nil {
		s += fmt.Sprintf("; catalog_source %s: live %s", c.mode, f.src.Describe())
	}
	return s
}

// fallbackWarning is the warning of a lookup served by the embedded catalog because the fetch failed.
func fallbackWarning(err error) string {
	return fmt.Sprintf("The live instance-type lookup failed, so the embedded catalog was used: %v.", err)
}

// snapshot is one cloud's fetched list.
type snapshot struct {
	types       []catalog.InstanceType // sorted by name
	index       map[string]int         // key(name) → position
	unavailable map[string]string      // key(name) → reason
	fold        bool                   // names match in any letter case (Azure)
	where       string
}

func (s *snapshot) key(name string) string {
	if s.fold {
		return strings.ToLower(name)
	}
	return name
}

func (s *snapshot) find(_ catalog.Cloud, name string) (catalog.InstanceType, bool) {
	i, ok := s.index[s.key(name)]
	if !ok {
		return catalog.InstanceType{}, false
	}
	return s.types[i], true
}

// reason is " (<why>)" for a name the API lists as unavailable, else "".
func (s *snapshot) reason(name string) string {
	if r, ok := s.unavailable[s.key(name)]; ok {
		return " (" + r + ")"
	}
	return ""
}

// notFound wraps the embedded catalog's not-found error with what the live list said.
func (s *snapshot) notFound(embeddedErr error, name string) error {
	return fmt.Errorf("%w; %s does not offer it either%s", embeddedErr, s.where, s.reason(name))
}

func newSnapshot(src Source, types []catalog.InstanceType, unavailable map[string]string) *snapshot {
	s := &snapshot{fold: src.Cloud() == catalog.Azure, where: src.Describe(), unavailable: map[string]string{}}
	slices.SortFunc(types, func(a, b catalog.InstanceType) int { return strings.Compare(a.Name, b.Name) })
	s.index = make(map[string]int, len(types))
	for _, it := range types {
		k := s.key(it.Name)
		if _, dup := s.index[k]; dup || it.Name == "" {
			continue
		}
		s.index[k] = len(s.types)
		s.types = append(s.types, it)
	}
	for k, v := range unavailable {
		s.unavailable[s.key(k)] = v
	}
	return s
}

// fetch is one cloud's single, shared, cached fetch.
type fetch struct {
	src Source

	mu   sync.Mutex
	done chan struct{} // nil until started; closed when snap/err are set

	snap *snapshot
	err  error
}

// get returns the cloud's list, starting the fetch on first use. The fetch runs detached from the first
// caller's cancellation (its values kept) under its own timeout, so one caller giving up does not fail
// the others; every caller returns when its own ctx ends.
func (f *fetch) get(ctx context.Context, timeout time.Duration) (*snapshot, error) {
	f.mu.Lock()
	if f.done == nil {
		f.done = make(chan struct{})
		go f.run(context.WithoutCancel(ctx), timeout)
	}
	done := f.done
	f.mu.Unlock()
	select {
	case <-done:
		return f.snap, f.err
	case <-ctx.Done():
		return nil, &Error{Cloud: f.src.Cloud(), Source: f.src.Describe(), Err: ctx.Err()}
	}
}

func (f *fetch) run(ctx context.Context, timeout time.Duration) {
	defer close(f.done)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	types, unavailable, err := f.src.Fetch(ctx)
	if err == nil && len(types) == 0 {
		err = errors.New("the API listed no instance types")
	}
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("timed out after %s", timeout)
		}
		f.err = &Error{Cloud: f.src.Cloud(), Source: f.src.Describe(), Err: err}
		return
	}
	f.snap = newSnapshot(f.src, types, unavailable)
}
