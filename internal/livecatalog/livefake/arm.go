package livefake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// ARM is a fake Azure Resource Manager answering the Resource SKUs list of one subscription and location
// with Types (as virtualMachines SKUs, plus one non-VM SKU on the first page), PageSize at a time, paged by
// nextLink. Serve it with httptest.NewTLSServer: azcore sends bearer tokens only over TLS. BaseURL must be
// set to the server's URL before use (nextLink is absolute).
type ARM struct {
	script
	BaseURL        string
	SubscriptionID string
	Location       string
	Token          string // the bearer token expected; "" accepts any
	Types          []catalog.InstanceType
	Restricted     map[string]string // name → reasonCode: listed with a Location restriction
	PageSize       int               // default 2
}

// ARMError is the body of an ARM error response.
func ARMError(code, message string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": message}})
	return string(b)
}

func (f *ARM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	if f.next(w, r) {
		return
	}
	fail := func(status int, code, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, ARMError(code, msg))
	}
	want := "/subscriptions/" + f.SubscriptionID + "/providers/Microsoft.Compute/skus"
	q := r.URL.Query()
	switch {
	case r.Method != http.MethodGet || r.URL.Path != want:
		fail(http.StatusNotFound, "NotFound", "unexpected request "+r.Method+" "+r.URL.Path)
		return
	case !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") ||
		(f.Token != "" && r.Header.Get("Authorization") != "Bearer "+f.Token):
		fail(http.StatusUnauthorized, "AuthenticationFailed", "Authentication failed.")
		return
	case q.Get("api-version") != "2021-07-01" || q.Get("$filter") != "location eq '"+f.Location+"'":
		fail(http.StatusBadRequest, "InvalidQuery", "unexpected query "+r.URL.RawQuery)
		return
	}
	size := f.PageSize
	if size <= 0 {
		size = 2
	}
	start, _ := strconv.Atoi(q.Get("$skiptoken"))
	start = min(max(start, 0), len(f.Types))
	end := min(start+size, len(f.Types))
	var page struct {
		Value    []map[string]any `json:"value"`
		NextLink string           `json:"nextLink,omitempty"`
	}
	page.Value = []map[string]any{}
	if start == 0 {
		page.Value = append(page.Value, map[string]any{"resourceType": "disks", "name": "Premium_LRS", "locations": []string{f.Location}})
	}
	for _, it := range f.Types[start:end] {
		page.Value = append(page.Value, f.sku(it))
	}
	if end < len(f.Types) {
		page.NextLink = fmt.Sprintf("%s%s?api-version=2021-07-01&$filter=%s&$skiptoken=%d", f.BaseURL, want,
			strings.ReplaceAll("location eq '"+f.Location+"'", " ", "%20"), end)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(page)
}

// sku renders a catalog row as a virtualMachines resource SKU.
func (f *ARM) sku(it catalog.InstanceType) map[string]any {
	var caps []map[string]string
	add := func(name string, v any) { caps = append(caps, map[string]string{"name": name, "value": fmt.Sprint(v)}) }
	add("MaxResourceVolumeMB", 0)
	add("MemoryGB", strconv.FormatFloat(float64(it.MemoryMiB)/1024, 'f', -1, 64))
	add("vCPUs", max(it.VCPUQuota, it.VCPU))
	add("vCPUsAvailable", it.VCPU)
	if it.GPUCount > 0 {
		add("GPUs", it.GPUCount)
	}
	add("MaxDataDiskCount", it.MaxDataDisks)
	add("UncachedDiskIOPS", it.UncachedDiskIOPS)
	add("UncachedDiskBytesPerSecond", int64(it.UncachedDiskMBps)*1_000_000)
	arch := "x64"
	if it.Architecture == catalog.ArchARM64 {
		arch = "Arm64"
	}
	add("CpuArchitectureType", arch)
	restrictions := []map[string]any{}
	if code, ok := f.Restricted[it.Name]; ok {
		restrictions = append(restrictions, map[string]any{"type": "Location", "values": []string{f.Location},
			"restrictionInfo": map[string]any{"locations": []string{f.Location}}, "reasonCode": code})
	}
	size, _ := strings.CutPrefix(it.Name, "Standard_")
	return map[string]any{
		"resourceType": "virtualMachines", "name": it.Name, "tier": "Standard", "size": size, "family": it.Family,
		"locations": []string{f.Location}, "capabilities": caps, "restrictions": restrictions,
	}
}
