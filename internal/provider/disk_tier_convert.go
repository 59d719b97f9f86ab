package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/disk"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

// The disk objects' conversions: configuration into the disk planner's query, shared by kubefit_disk_tier and
// kubefit_storage_class.

// diskTierAttribute maps a disk.Query path to this data source's attribute.
func diskTierAttribute(p field.Path) path.Path {
	return attributePath(path.Empty(), p, diskTierRenames)
}

// diskAccess converts an `io` object into the planner's access profile.
func diskAccess(ctx context.Context, o types.Object, diags *diag.Diagnostics) disk.Access {
	var a disk.Access
	if o.IsNull() || o.IsUnknown() {
		return a
	}
	var io diskIOModel
	diags.Append(o.As(ctx, &io, basetypes.ObjectAsOptions{})...)
	if !io.BlockSizeKiB.IsNull() {
		a.BlockSize = io.BlockSizeKiB.ValueInt64() * 1024
	}
	a.Pattern = disk.Pattern(io.Pattern.ValueString())
	a.QueueDepth = io.QueueDepth.ValueInt64()
	if !io.LatencyMs.IsNull() {
		lat, ok := disk.Latency(io.LatencyMs.ValueFloat64())
		if !ok {
			diags.AddAttributeError(path.Root("io").AtName("latency_ms"), "Invalid Latency",
				fmt.Sprintf("latency_ms must be above 0 and at most 60,000, got %v", io.LatencyMs.ValueFloat64()))
		}
		a.Latency = lat
	}
	return a
}

// diskRequirement converts required_iops / required_throughput_mbps (in the type's unit), their I/O
// shapes and concurrent_requirements.
func diskRequirement(ctx context.Context, t disk.Type, m diskRequirementModel, diags *diag.Diagnostics) disk.Requirement {
	req := disk.Requirement{IOPS: m.IOPS.ValueInt64(), Concurrent: m.Concurrent.ValueBool(),
		IOPSShape: diskShape(ctx, m.IOPSIO, diags), ThroughputShape: diskShape(ctx, m.ThroughputIO, diags)}
	if !m.Throughput.IsNull() {
		b, ok := t.ThroughputUnit().Rate(m.Throughput.ValueFloat64())
		if !ok {
			diags.AddAttributeError(path.Root("required_throughput_mbps"), "Invalid Throughput", fmt.Sprintf("required throughput "+
				"must be 0 to 10 TB/s, got %v %s", m.Throughput.ValueFloat64(), t.ThroughputUnit().Name))
		}
		req.BytesPerSec = b
	}
	return req
}

// diskShape converts an `iops_io` / `throughput_io` object into a requirement's I/O shape.
func diskShape(ctx context.Context, o types.Object, diags *diag.Diagnostics) disk.IOShape {
	var s disk.IOShape
	if o.IsNull() || o.IsUnknown() {
		return s
	}
	var m diskShapeModel
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	if !m.BlockSizeKiB.IsNull() {
		s.BlockSize = m.BlockSizeKiB.ValueInt64() * 1024
	}
	s.Pattern = disk.Pattern(m.Pattern.ValueString())
	return s
}

// diskCandidates lists the instance types of it's family with their disk limits, for the sizes that
// sustain a demand (disks.md §7.10), and names the family. Types without per-node limits are left out;
// a listing that fails leaves none, with a warning at p.
func diskCandidates(ctx context.Context, cat sizing.Catalog, it catalog.InstanceType, p path.Path, diags *diag.Diagnostics) ([]disk.NodeLimits, string) {
	if it.Family == "" || it.Cloud == catalog.GCP {
		return nil, ""
	}
	all, ok := catalogList(ctx, cat, p, it.Cloud, diags)
	if !ok {
		return nil, ""
	}
	var out []disk.NodeLimits
	for _, c := range all {
		if c.Family != it.Family {
			continue
		}
		if n, err := disk.NodeLimitsFor(c); err == nil {
			out = append(out, n)
		}
	}
	return out, fmt.Sprintf("the %s family", it.Family)
}

// diskNode is the node of a disk query: its limits and, with a requirement, its family's sizes.
type diskNode struct {
	limits       *disk.NodeLimits
	candidates   []disk.NodeLimits
	candidateSet string
	// instance is the node's catalog row (zero without a node), which the GCP machine-series check reads.
	instance catalog.InstanceType
}

// diskNodeLimits looks up the instance type at p, its disk limits and (when family is set) the sizes of
// its family. ok is false after an error; limits is nil (with a warning at p) when kubefit has no disk
// limits for the type.
func diskNodeLimits(ctx context.Context, cat sizing.Catalog, cloud catalog.Cloud, name types.String, p path.Path, family bool, diags *diag.Diagnostics) (diskNode, bool) {
	if name.IsNull() {
		return diskNode{}, true
	}
	it, ok := lookupInstance(ctx, cat, p, cloud, name.ValueString(), diags)
	if !ok {
		return diskNode{}, false
	}
	n, err := disk.NodeLimitsFor(it)
	if err != nil {
		var f *disk.Finding
		if errors.As(err, &f) {
			addDiskFinding(diags, f, p, true)
			return diskNode{instance: it}, f.Severity == disk.SeverityWarning
		}
		diags.AddAttributeError(p, "Invalid Disk Configuration", err.Error())
		return diskNode{}, false
	}
	out := diskNode{limits: &n, instance: it}
	if family {
		out.candidates, out.candidateSet = diskCandidates(ctx, cat, it, p, diags)
	}
	return out, true
}

// diskTierQuery builds the planner query from a fully known configuration.
func diskTierQuery(ctx context.Context, cat sizing.Catalog, m diskTierModel, diags *diag.Diagnostics) (disk.Query, bool) {
	cloud, ok := parseCloud(path.Root("cloud"), m.Cloud, diags)
	if !ok {
		return disk.Query{}, false
	}
	t, err := disk.ParseType(cloud, m.Type.ValueString())
	if err != nil {
		diags.AddAttributeError(path.Root("type"), "Invalid Disk Type", err.Error())
		return disk.Query{}, false
	}
	req := diskRequirement(ctx, t, diskRequirementModel{IOPS: m.RequiredIOPS, Throughput: m.RequiredThroughputMBps,
		IOPSIO: m.IOPSIO, ThroughputIO: m.ThroughputIO, Concurrent: m.ConcurrentRequirements}, diags)
	node, ok := diskNodeLimits(ctx, cat, cloud, m.InstanceType, path.Root("instance_type"), !req.IsZero(), diags)
	if !ok {
		return disk.Query{}, false
	}
	if f := disk.CheckGCPMachineDisk(node.instance, string(t), field.NewPath("Spec", "Type")); f != nil {
		addDiskFinding(diags, f, diskTierAttribute(f.Path), true) // disks.md §6.1: the type must attach to instance_type
	}
	q := disk.Query{
		Spec: disk.Spec{Type: t, SizeGiB: m.SizeGiB.ValueInt64(), IOPS: m.IOPS.ValueInt64(),
			Throughput: m.ThroughputMBps.ValueInt64(), Bursting: m.EnableBursting.ValueBool(),
			PerformancePlus: m.PerformancePlus.ValueBool()},
		Node: node.limits, VolumesPerNode: m.VolumesPerNode.ValueInt64(),
		Access:      diskAccess(ctx, m.IO, diags),
		Requirement: req,
		Caching:     disk.Caching(m.CachingMode.ValueString()),
		Candidates:  node.candidates, CandidateSet: node.candidateSet,
	}
	return q, !diags.HasError()
}
