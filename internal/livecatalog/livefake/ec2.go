package livefake

import (
	"encoding/xml"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
)

// EC2 is a fake EC2 Query endpoint answering DescribeInstanceTypes with Types, PageSize at a time.
type EC2 struct {
	script
	Types    []catalog.InstanceType
	PageSize int // default 2
}

// EC2Error is the body of an EC2 Query API error response.
func EC2Error(code, message string) string {
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n<Response><Errors><Error><Code>" + code + "</Code><Message>" +
		escape(message) + "</Message></Error></Errors><RequestID>00000000-fake</RequestID></Response>"
}

func (f *EC2) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.calls.Add(1)
	if err := r.ParseForm(); err != nil || r.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	if f.next(w, r) {
		return
	}
	if a := r.Form.Get("Action"); a != "DescribeInstanceTypes" {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, EC2Error("InvalidAction", "unexpected action "+a))
		return
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, EC2Error("AuthFailure", "AWS was not able to validate the provided access credentials"))
		return
	}
	size := f.PageSize
	if size <= 0 {
		size = 2
	}
	start := 0
	if t := r.Form.Get("NextToken"); t != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(t, "tok-"))
		if err != nil || n < 0 || n > len(f.Types) {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, EC2Error("InvalidNextToken", "bad token"))
			return
		}
		start = n
	}
	end := min(start+size, len(f.Types))
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<DescribeInstanceTypesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>fake</requestId><instanceTypeSet>`)
	for _, it := range f.Types[start:end] {
		writeEC2Item(&b, it)
	}
	b.WriteString("</instanceTypeSet>")
	if end < len(f.Types) {
		fmt.Fprintf(&b, "<nextToken>tok-%d</nextToken>", end)
	}
	b.WriteString("</DescribeInstanceTypesResponse>")
	w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
	fmt.Fprint(w, b.String())
}

// writeEC2Item renders a catalog row as a DescribeInstanceTypes <item>.
func writeEC2Item(b *strings.Builder, it catalog.InstanceType) {
	el := func(name string, v any) { fmt.Fprintf(b, "<%s>%v</%s>", name, v, name) }
	b.WriteString("<item>")
	el("instanceType", escape(it.Name))
	el("currentGeneration", true)
	el("bareMetal", it.BareMetal)
	el("burstablePerformanceSupported", it.Burstable)
	if it.Hypervisor != "" {
		el("hypervisor", it.Hypervisor)
	}
	fmt.Fprintf(b, "<vCpuInfo><defaultVCpus>%d</defaultVCpus></vCpuInfo>", it.VCPU)
	fmt.Fprintf(b, "<memoryInfo><sizeInMiB>%d</sizeInMiB></memoryInfo>", it.MemoryMiB)
	arch := it.Architecture
	if arch == "" {
		arch = catalog.ArchAMD64
	}
	fmt.Fprintf(b, "<processorInfo><supportedArchitectures><item>%s</item></supportedArchitectures></processorInfo>", arch)
	if it.GPUCount > 0 {
		fmt.Fprintf(b, "<gpuInfo><gpus><item><name>FakeGPU</name><manufacturer>NVIDIA</manufacturer><count>%d</count></item></gpus></gpuInfo>", it.GPUCount)
	}
	b.WriteString("<networkInfo>")
	el("maximumNetworkInterfaces", max(it.MaxENIsAllCards, it.MaxENIs))
	el("ipv4AddressesPerInterface", it.IPv4PerENI)
	cards := max(it.NetworkCards, 1)
	el("maximumNetworkCards", cards)
	el("defaultNetworkCardIndex", 0)
	b.WriteString("<networkCards>")
	rest := max(it.MaxENIsAllCards-it.MaxENIs, 0)
	for i := range cards {
		n := it.MaxENIs
		if i > 0 {
			n = rest / (cards - 1)
		}
		fmt.Fprintf(b, "<item><networkCardIndex>%d</networkCardIndex><maximumNetworkInterfaces>%d</maximumNetworkInterfaces></item>", i, n)
	}
	b.WriteString("</networkCards></networkInfo>")
	b.WriteString("<ebsInfo>")
	if it.EBSMaxAttachments > 0 {
		el("maximumEbsAttachments", it.EBSMaxAttachments)
	}
	if it.EBSMaxBandwidthMbps > 0 {
		el("ebsOptimizedSupport", "default")
		b.WriteString("<ebsOptimizedInfo>")
		el("baselineBandwidthInMbps", int(it.EBSBaselineBandwidthMbps))
		el("maximumBandwidthInMbps", int(it.EBSMaxBandwidthMbps))
		el("baselineThroughputInMBps", it.EBSBaselineThroughputMBps)
		el("maximumThroughputInMBps", it.EBSMaxThroughputMBps)
		el("baselineIops", it.EBSBaselineIOPS)
		el("maximumIops", it.EBSMaxIOPS)
		b.WriteString("</ebsOptimizedInfo>")
	} else {
		el("ebsOptimizedSupport", "unsupported")
	}
	b.WriteString("</ebsInfo>")
	if it.InstanceStorageGB > 0 {
		disks := max(it.InstanceStorageDisks, 1)
		fmt.Fprintf(b, "<instanceStorageSupported>true</instanceStorageSupported><instanceStorageInfo><totalSizeInGB>%d</totalSizeInGB>"+
			"<disks><item><sizeInGB>%d</sizeInGB><count>%d</count><type>ssd</type></item></disks></instanceStorageInfo>",
			it.InstanceStorageGB, it.InstanceStorageGB/disks, disks)
	}
	b.WriteString("</item>")
}

func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
