package catalog

import (
	"embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

//go:embed data/*.tsv
var dataFS embed.FS

// ParseCloud returns the Cloud named by s: "aws", "azure" or "gcp", in any letter case.
func ParseCloud(s string) (Cloud, error) {
	for _, c := range []Cloud{AWS, Azure, GCP} {
		if strings.EqualFold(s, string(c)) {
			return c, nil
		}
	}
	return "", unknownCloud(s)
}

// unknownCloud is the error for a cloud name that is not one of the three.
func unknownCloud(s string) error {
	return fmt.Errorf("unknown cloud %q: valid values are \"aws\", \"azure\" and \"gcp\"", s)
}

// NotFoundError reports an instance type name that is not in the catalog, with the closest names.
type NotFoundError struct {
	Cloud       Cloud
	Name        string   // the name as given
	Suggestions []string // up to three catalog names closest to Name, closest first
	// OtherCloud is a cloud whose catalog has the name, when another one does ("" otherwise).
	OtherCloud Cloud
}

// maxNameInMessage is the most runes of a name an error message quotes.
const maxNameInMessage = 64

// Error returns, for example, `instance type "m5.larg" is not in the aws catalog; did you mean
// "m5.large"?`. An empty name, a name of another cloud and a very long name get their own wording.
func (e *NotFoundError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("the instance type name is empty; give an instance type name of the %s catalog.", e.Cloud)
	}
	var b strings.Builder
	name := e.Name
	if r := []rune(name); len(r) > maxNameInMessage {
		name = string(r[:maxNameInMessage-1]) + "…"
	}
	fmt.Fprintf(&b, "instance type %q is not in the %s catalog", name, e.Cloud)
	if e.OtherCloud != "" {
		fmt.Fprintf(&b, "; it is in the %s catalog: check the cloud", e.OtherCloud)
	}
	for i, s := range e.Suggestions {
		switch {
		case i == 0:
			b.WriteString("; did you mean ")
		case i == len(e.Suggestions)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(s))
	}
	if len(e.Suggestions) > 0 {
		b.WriteByte('?')
	} else {
		b.WriteByte('.')
	}
	return b.String()
}

// Lookup returns the instance type name of cloud. AWS and GCP names must match exactly; Azure
// names match in any letter case and the result carries Azure's spelling ("standard_ds1_v2" gives
// "Standard_DS1_v2"). A name not in the catalog gives a *NotFoundError with suggestions.
func Lookup(cloud Cloud, name string) (InstanceType, error) {
	t, err := load(cloud)
	if err != nil {
		return InstanceType{}, err
	}
	key := name
	if cloud == Azure {
		key = strings.ToLower(name)
	}
	if i, ok := t.index[key]; ok {
		return t.types[i], nil
	}
	nf := &NotFoundError{Cloud: cloud, Name: name, Suggestions: t.suggest(name)}
	for _, other := range Clouds {
		if other == cloud {
			continue
		}
		if o, err := load(other); err == nil {
			key := name
			if other == Azure {
				key = strings.ToLower(name)
			}
			if _, ok := o.index[key]; ok {
				nf.OtherCloud = other
				break
			}
		}
	}
	return InstanceType{}, nf
}

// Names returns the names of every instance type of cloud, sorted (byte order). It returns nil for
// an unknown cloud. The slice is the caller's to keep or change.
func Names(cloud Cloud) []string {
	t, err := load(cloud)
	if err != nil {
		return nil
	}
	return slices.Clone(t.names)
}

// All returns every instance type of cloud, sorted by name. It returns nil for an unknown cloud.
// The slice is a fresh copy: changing it does not change the catalog.
func All(cloud Cloud) []InstanceType {
	t, err := load(cloud)
	if err != nil {
		return nil
	}
	return slices.Clone(t.types)
}

// Date returns the catalog's data date, YYYY-MM-DD: the newest snapshot date of any upstream
// repository the three tables were read from (the generated headers' catalog-date). Prices and
// older sources have their own, earlier dates (InstanceType.PriceDate, the file headers).
func Date() string {
	date := ""
	for _, c := range []Cloud{AWS, Azure, GCP} {
		if h, err := loadHeader(c); err == nil {
			date = max(date, h.hdr.catalogDate)
		}
	}
	return date
}

// Sources returns a one-line attribution of cloud's table: its upstream repositories at the
// commits read (and, for GCP, the documentation pages read), and the price region and date. It returns "" for an unknown cloud.
func Sources(cloud Cloud) string {
	h, err := loadHeader(cloud)
	if err != nil {
		return ""
	}
	return h.hdr.attribution
}

// header holds the "# key: value" lines of a generated file that the package uses.
type header struct {
	priceRegion, priceDate, dataDate, catalogDate, attribution string
}

// table is one cloud's parsed catalog.
type table struct {
	types  []InstanceType // sorted by Name
	names  []string       // names[i] == types[i].Name
	folded []string       // lower-cased names, for suggestions
	index  map[string]int // name → position; Azure: lower-cased name
	maxLen int            // longest folded name, in bytes
	azure  bool           // names match in any letter case
}

// lazy loads one cloud's embedded file once.
type lazy struct {
	rawOnce sync.Once
	hdr     header
	body    string // the file after its "# " lines
	rawErr  error

	tblOnce sync.Once
	tbl     *table
	tblErr  error
}

var clouds = map[Cloud]*lazy{AWS: {}, Azure: {}, GCP: {}}

// loadHeader reads cloud's file and its header, once.
func loadHeader(cloud Cloud) (*lazy, error) {
	l, ok := clouds[cloud]
	if !ok {
		return nil, unknownCloud(string(cloud))
	}
	l.rawOnce.Do(func() {
		var data []byte
		data, l.rawErr = dataFS.ReadFile("data/" + string(cloud) + ".tsv")
		if l.rawErr == nil {
			l.hdr, l.body, l.rawErr = parseHeader(string(data))
		}
		if l.rawErr != nil {
			l.rawErr = fmt.Errorf("catalog: embedded %s table: %w", cloud, l.rawErr)
		}
	})
	return l, l.rawErr
}

// load parses cloud's table, once.
func load(cloud Cloud) (*table, error) {
	l, err := loadHeader(cloud)
	if err != nil {
		return nil, err
	}
	l.tblOnce.Do(func() {
		l.tbl, l.tblErr = parseTable(cloud, l.hdr, l.body)
		if l.tblErr != nil {
			l.tblErr = fmt.Errorf("catalog: embedded %s table: %w", cloud, l.tblErr)
		}
	})
	return l.tbl, l.tblErr
}

// parseHeader reads the leading "# " lines of a generated file and returns the rest.
func parseHeader(data string) (header, string, error) {
	var h header
	fields := []struct {
		key string
		p   *string
	}{
		{"price-region", &h.priceRegion}, {"price-date", &h.priceDate}, {"data-date", &h.dataDate},
		{"catalog-date", &h.catalogDate}, {"attribution", &h.attribution},
	}
	rest := data
	for strings.HasPrefix(rest, "#") {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		key, value, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": ")
		for _, f := range fields {
			if ok && f.key == key {
				*f.p = value
			}
		}
	}
	for _, f := range fields {
		if *f.p == "" {
			return header{}, "", fmt.Errorf("header has no %q line", "# "+f.key+": ")
		}
	}
	return h, rest, nil
}

// setter stores one cell into an InstanceType.
type setter func(t *InstanceType, cell string) error

func setString(f func(*InstanceType) *string) setter {
	return func(t *InstanceType, cell string) error { *f(t) = cell; return nil }
}

func setInt(f func(*InstanceType) *int) setter {
	return func(t *InstanceType, cell string) error {
		if cell == "" {
			return nil
		}
		v, err := strconv.Atoi(cell)
		if err != nil || v < 0 {
			return fmt.Errorf("%q is not a non-negative integer", cell)
		}
		*f(t) = v
		return nil
	}
}

func setInt64(f func(*InstanceType) *int64) setter {
	return func(t *InstanceType, cell string) error {
		if cell == "" {
			return nil
		}
		v, err := strconv.ParseInt(cell, 10, 64)
		if err != nil || v < 0 {
			return fmt.Errorf("%q is not a non-negative integer", cell)
		}
		*f(t) = v
		return nil
	}
}

func setFloat(f func(*InstanceType) *float64) setter {
	return func(t *InstanceType, cell string) error {
		if cell == "" {
			return nil
		}
		v, err := strconv.ParseFloat(cell, 64)
		if err != nil || v < 0 {
			return fmt.Errorf("%q is not a non-negative number", cell)
		}
		*f(t) = v
		return nil
	}
}

func setBool(f func(*InstanceType) *bool) setter {
	return func(t *InstanceType, cell string) error {
		switch cell {
		case "", "false":
		case "true":
			*f(t) = true
		default:
			return fmt.Errorf("%q is not true or false", cell)
		}
		return nil
	}
}

// setters maps the column names of the generated files to InstanceType fields.
var setters = map[string]setter{
	"name":                        setString(func(t *InstanceType) *string { return &t.Name }),
	"family":                      setString(func(t *InstanceType) *string { return &t.Family }),
	"vcpu":                        setInt(func(t *InstanceType) *int { return &t.VCPU }),
	"vcpu_quota":                  setInt(func(t *InstanceType) *int { return &t.VCPUQuota }),
	"memory_mib":                  setInt64(func(t *InstanceType) *int64 { return &t.MemoryMiB }),
	"arch":                        setArch,
	"gpus":                        setInt(func(t *InstanceType) *int { return &t.GPUCount }),
	"burstable":                   setBool(func(t *InstanceType) *bool { return &t.Burstable }),
	"shared_core":                 setBool(func(t *InstanceType) *bool { return &t.SharedCore }),
	"hypervisor":                  setHypervisor,
	"bare_metal":                  setBool(func(t *InstanceType) *bool { return &t.BareMetal }),
	"max_enis":                    setInt(func(t *InstanceType) *int { return &t.MaxENIs }),
	"ipv4_per_eni":                setInt(func(t *InstanceType) *int { return &t.IPv4PerENI }),
	"eni_max_pods":                setInt(func(t *InstanceType) *int { return &t.ENIMaxPods }),
	"max_enis_all_cards":          setInt(func(t *InstanceType) *int { return &t.MaxENIsAllCards }),
	"network_cards":               setInt(func(t *InstanceType) *int { return &t.NetworkCards }),
	"ebs_baseline_mbps":           setFloat(func(t *InstanceType) *float64 { return &t.EBSBaselineBandwidthMbps }),
	"ebs_max_mbps":                setFloat(func(t *InstanceType) *float64 { return &t.EBSMaxBandwidthMbps }),
	"ebs_baseline_mbytes_per_s":   setFloat(func(t *InstanceType) *float64 { return &t.EBSBaselineThroughputMBps }),
	"ebs_max_mbytes_per_s":        setFloat(func(t *InstanceType) *float64 { return &t.EBSMaxThroughputMBps }),
	"ebs_baseline_iops":           setInt(func(t *InstanceType) *int { return &t.EBSBaselineIOPS }),
	"ebs_max_iops":                setInt(func(t *InstanceType) *int { return &t.EBSMaxIOPS }),
	"ebs_max_attachments":         setInt(func(t *InstanceType) *int { return &t.EBSMaxAttachments }),
	"instance_storage_gb":         setInt(func(t *InstanceType) *int { return &t.InstanceStorageGB }),
	"instance_storage_disks":      setInt(func(t *InstanceType) *int { return &t.InstanceStorageDisks }),
	"max_data_disks":              setInt(func(t *InstanceType) *int { return &t.MaxDataDisks }),
	"uncached_iops":               setInt(func(t *InstanceType) *int { return &t.UncachedDiskIOPS }),
	"uncached_mbytes_per_s":       setInt(func(t *InstanceType) *int { return &t.UncachedDiskMBps }),
	"uncached_burst_iops":         setInt(func(t *InstanceType) *int { return &t.UncachedDiskBurstIOPS }),
	"uncached_burst_mbytes_per_s": setInt(func(t *InstanceType) *int { return &t.UncachedDiskBurstMBps }),
	"price_usd_hour":              setFloat(func(t *InstanceType) *float64 { return &t.PriceUSDPerHour }),
	"sources":                     setString(func(t *InstanceType) *string { return &t.Sources }),
}

func setArch(t *InstanceType, cell string) error {
	switch cell {
	case "", ArchAMD64, ArchARM64:
		t.Architecture = cell
		return nil
	}
	return fmt.Errorf("%q is not an architecture", cell)
}

func setHypervisor(t *InstanceType, cell string) error {
	switch cell {
	case "", "nitro", "xen":
		t.Hypervisor = cell
		return nil
	}
	return fmt.Errorf("%q is not a hypervisor", cell)
}

// parseTable parses the body of a generated file: a column row, then one row per type, sorted by
// name without duplicates.
func parseTable(cloud Cloud, h header, body string) (*table, error) {
	colLine, rest, _ := strings.Cut(body, "\n")
	var cols []setter
	for name := range strings.SplitSeq(colLine, "\t") {
		s, ok := setters[name]
		if !ok {
			return nil, fmt.Errorf("unknown column %q", name)
		}
		cols = append(cols, s)
	}
	n := strings.Count(rest, "\n")
	t := &table{
		types:  make([]InstanceType, 0, n),
		names:  make([]string, 0, n),
		folded: make([]string, 0, n),
		index:  make(map[string]int, n),
		azure:  cloud == Azure,
	}
	for line := 1; rest != ""; line++ {
		var row string
		row, rest, _ = strings.Cut(rest, "\n")
		it := InstanceType{Cloud: cloud}
		i := 0
		for more, ok := row, true; ok; i++ {
			if i >= len(cols) {
				return nil, fmt.Errorf("row %d: more than %d cells", line, len(cols))
			}
			var cell string
			cell, more, ok = strings.Cut(more, "\t")
			if err := cols[i](&it, cell); err != nil {
				return nil, fmt.Errorf("row %d (%s), column %d: %w", line, it.Name, i+1, err)
			}
		}
		if i != len(cols) {
			return nil, fmt.Errorf("row %d (%s): %d cells, want %d", line, it.Name, i, len(cols))
		}
		if it.Name == "" {
			return nil, fmt.Errorf("row %d: empty name", line)
		}
		if k := len(t.names); k > 0 && t.names[k-1] >= it.Name {
			return nil, fmt.Errorf("row %d: %q is not after %q", line, it.Name, t.names[k-1])
		}
		if it.PriceUSDPerHour > 0 {
			it.PriceRegion, it.PriceDate = h.priceRegion, h.priceDate
		}
		key, folded := it.Name, strings.ToLower(it.Name)
		if cloud == Azure {
			key = folded
		}
		if _, dup := t.index[key]; dup {
			return nil, fmt.Errorf("row %d: %q repeats a name", line, it.Name)
		}
		t.index[key] = len(t.types)
		t.types = append(t.types, it)
		t.names = append(t.names, it.Name)
		t.folded = append(t.folded, folded)
		t.maxLen = max(t.maxLen, len(folded))
	}
	if len(t.types) == 0 {
		return nil, errors.New("no rows")
	}
	return t, nil
}
