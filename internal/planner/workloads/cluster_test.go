package workloads

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/catalog"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/overhead"
	"github.com/kubefit/terraform-provider-kubefit/internal/planner/sizing"
)

func snapshot(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("testdata/cluster/snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadCluster(t *testing.T) {
	res := mustRead(t, Input{Cluster: snapshot(t)})
	if len(res.Pools) != 2 {
		t.Fatalf("pools = %+v, want general and gpu", res.Pools)
	}
	g := res.Pools[0]
	if g.Name != "general" || g.Cloud != catalog.AWS || g.MaxNodes != 2 || g.MinNodes != 2 || len(g.Nodes) != 2 ||
		strings.Join(g.InstanceTypes, ",") != "m5.large" || strings.Join(g.Zones, ",") != "eu-west-1a,eu-west-1b" || g.GroupedBy != "eks.amazonaws.com/nodegroup" {
		t.Errorf("general = %+v, want 2 schedulable m5.large nodes in two zones (the cordoned one left out)", g)
	}
	if a := g.Overhead.MeasuredAllocatable; a.CPUMillicores == nil || *a.CPUMillicores != 1930 || *a.MemoryBytes != 7220180*1024 || *a.Pods != 29 {
		t.Errorf("general allocatable = %+v, want the smaller node's 1930m, 7220180Ki, 29 pods", a)
	}
	if g.Labels["role"] != "general" || g.Labels["kubernetes.io/hostname"] != "" || g.Labels["topology.kubernetes.io/zone"] != "" {
		t.Errorf("general labels = %v, want the common ones without per-node labels", g.Labels)
	}
	if gpu := res.Pools[1]; len(gpu.Taints) != 1 || gpu.Taints[0].Key != "nvidia.com/gpu" {
		t.Errorf("gpu taints = %+v", gpu.Taints)
	}
	if len(g.Taints) != 0 {
		t.Errorf("general taints = %+v, want none (the cordon taint is a condition)", g.Taints)
	}
	if !hasWarning(res, WarnNodeCordoned, "ip-10-0-3-12.eu-west-1.compute.internal") {
		t.Errorf("no warning for the cordoned node: %+v", res.Warnings)
	}

	web := workload(t, res, "web")
	if deref(web.Replicas) != 3 || web.Source.Kind != "Deployment" || web.Source.Origin != OriginCluster || web.Requests.CPUMillicores != 500 || web.MaxSurge.Value != 25 {
		t.Errorf("web = replicas %d source %+v requests %+v surge %+v, want 3 pods (Pending counted) of the Deployment", deref(web.Replicas), web.Source, web.Requests, web.MaxSurge)
	}
	if c := workload(t, res, "coredns"); deref(c.Replicas) != 2 || c.Requests.MemoryBytes != 70<<20 {
		t.Errorf("coredns = %d %+v", deref(c.Replicas), c.Requests)
	}
	db := workload(t, res, "db")
	if len(db.Pod.VolumeClaims) != 1 || db.Pod.VolumeClaims[0].SizeBytes != 50<<30 {
		t.Errorf("db claims = %+v, want data-db-0 of 50Gi", db.Pod.VolumeClaims)
	}
	if tr := workload(t, res, "trainer"); tr.Requests.GPU != 1 || len(tr.Tolerations) != 1 {
		t.Errorf("trainer = %+v tolerations %+v", tr.Requests, tr.Tolerations)
	}
	for _, w := range res.Workloads {
		if w.Name == "migrate" {
			t.Errorf("a finished Job pod was read as load")
		}
	}
	if len(res.DaemonSets) != 2 {
		t.Fatalf("daemonsets = %+v, want kube-proxy and aws-node", res.DaemonSets)
	}
	for _, d := range res.DaemonSets {
		for _, c := range d.Pod.Constraints {
			if !c.Modelled {
				t.Errorf("DaemonSet %s: constraint %s (%s) unmodelled: the controller's per-node affinity and the binding must not count", d.Name, c.Type, c.Spec)
			}
		}
	}
	if hasWarning(res, WarnUnmodelledConstraint, "web") {
		t.Errorf("a bound pod's nodeName was read as a constraint: %+v", res.Warnings)
	}
}

// TestReadClusterWithManifests checks that a workload in the manifests replaces its running pods.
func TestReadClusterWithManifests(t *testing.T) {
	m := strings.Replace(deployment("web", "5", "{requests: {cpu: 700m, memory: 512Mi}}", ""), "  name: web\n", "  name: web\n  namespace: shop\n", 1)
	res := mustRead(t, Input{Cluster: snapshot(t), Manifests: m})
	web := workload(t, res, "web")
	if deref(web.Replicas) != 5 || web.Requests.CPUMillicores != 700 || web.Source.Origin != OriginManifests {
		t.Errorf("web = %d %+v from %s, want the manifests' 5 pods of 700m", deref(web.Replicas), web.Requests, web.Source.Origin)
	}
	n := 0
	for _, w := range res.Workloads {
		if w.Source.Name == "web" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d workloads named web, want the running one replaced", n)
	}
	res = mustRead(t, Input{Cluster: snapshot(t), Exclude: []Filter{{Namespaces: []string{"kube-system"}}}})
	if len(res.DaemonSets) != 0 {
		t.Errorf("excluding kube-system left DaemonSets %+v", res.DaemonSets)
	}
	_, err := Read(Input{Cluster: "{not json"})
	if es := field.As(err); len(es) != 1 || es[0].Path.String() != "Cluster" || !strings.Contains(es[0].Detail, "of the cluster snapshot is not valid JSON") {
		t.Errorf("bad snapshot: %v", err)
	}
}

// TestClusterPlansWithSizing plans the snapshot's pools and load through the sizing front door: the pools
// plan on the measured allocatable, and every running workload is placed on a pool.
func TestClusterPlansWithSizing(t *testing.T) {
	res := mustRead(t, Input{Cluster: snapshot(t)})
	req := sizing.Request{}
	for _, p := range res.Pools {
		req.Pools = append(req.Pools, p.Pool)
	}
	for _, d := range res.DaemonSets {
		req.DaemonSets = append(req.DaemonSets, d.DaemonSet)
	}
	for _, w := range res.Workloads {
		req.Workloads = append(req.Workloads, w.Workload)
	}
	plan, err := sizing.NewPlanner(sizing.EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	for i, p := range plan.Pools {
		a := res.Pools[i].Overhead.MeasuredAllocatable
		if p.Allocatable.CPUMillicores != *a.CPUMillicores || p.Allocatable.MemoryBytes != *a.MemoryBytes {
			t.Errorf("pool %s plans on %+v, want the measured %d m, %d bytes", res.Pools[i].Name, p.Allocatable, *a.CPUMillicores, *a.MemoryBytes)
		}
	}
	placed := map[string]bool{}
	for _, p := range plan.Pools {
		for _, n := range p.Steady.Nodes {
			for _, w := range n.Workloads {
				placed[w.Workload] = true
			}
		}
	}
	if !placed["trainer"] || !placed["web"] {
		t.Errorf("placed = %v, want the running workloads on the measured pools", placed)
	}
}

// TestReadClusterDaemonSetPools: a DaemonSet whose pods run only on the gpu pool is planned there only
// (the controller's per-node affinity replaced its own, so the pools its pods are on say where it lands).
func TestReadClusterDaemonSetPools(t *testing.T) {
	snap := snapshot(t)
	res := mustRead(t, Input{Cluster: snap})
	for _, d := range res.DaemonSets {
		if d.Name == "kube-proxy" && len(d.NodeAffinity) != 0 {
			t.Errorf("kube-proxy runs on every pool, but got affinity %+v", d.NodeAffinity)
		}
	}
	// Move the aws-node pods (25m) of the general nodes onto the gpu node.
	gpuOnly := snap
	for _, n := range []string{"ip-10-0-1-10.eu-west-1.compute.internal", "ip-10-0-2-11.eu-west-1.compute.internal"} {
		gpuOnly = strings.ReplaceAll(gpuOnly, awsNodePod(n), awsNodePod("ip-10-0-1-20.eu-west-1.compute.internal"))
	}
	if gpuOnly == snap {
		t.Fatal("the snapshot's aws-node pods were not moved; the fixture changed shape")
	}
	res = mustRead(t, Input{Cluster: gpuOnly})
	for _, d := range res.DaemonSets {
		if d.Name == "aws-node" && fmt.Sprint(d.NodeAffinity) != "[{[{eks.amazonaws.com/nodegroup In [gpu]}]}]" {
			t.Errorf("aws-node affinity = %v, want it pinned to the gpu pool", d.NodeAffinity)
		}
	}
}

// awsNodePod is the start of an aws-node pod's spec (the only 25m container) bound to node, as the
// snapshot writes it.
func awsNodePod(node string) string {
	return `"nodeName": "` + node + `",
                "containers": [
                    {
                        "name": "c",
                        "image": "i",
                        "resources": {
                            "requests": {
                                "cpu": "25m"`
}

// TestReadClusterDaemonSetUntolerated: the snapshot's kube-proxy and aws-node pods run on the gpu node, whose
// nvidia.com/gpu=true:NoSchedule taint they do not tolerate (the taint came after them). Read by their
// tolerations, they would be planned off the gpu pool and their 125m left out of the node that runs them; they
// are planned where the snapshot shows them, with a warning naming the taint and the pool.
func TestReadClusterDaemonSetUntolerated(t *testing.T) {
	res := mustRead(t, Input{Cluster: snapshot(t)})
	var warned []string
	for _, w := range res.Warnings {
		if w.Code == WarnDaemonsetUntolerated {
			warned = append(warned, w.Source.Name)
			if !strings.Contains(w.Message, `nvidia.com/gpu=true:NoSchedule (pool "gpu")`) {
				t.Errorf("warning %q names no taint and pool", w.Message)
			}
		}
	}
	if fmt.Sprint(warned) != "[kube-proxy aws-node]" {
		t.Errorf("warned about %v, want kube-proxy and aws-node (they run on the gpu node)", warned)
	}
	req := sizing.Request{SystemDaemonSets: overhead.SystemDaemonSetsListed}
	for _, p := range res.Pools {
		req.Pools = append(req.Pools, p.Pool)
	}
	for _, d := range res.DaemonSets {
		req.DaemonSets = append(req.DaemonSets, d.DaemonSet)
	}
	plan, err := sizing.NewPlanner(sizing.EmbeddedCatalog()).Solve(context.Background(), req)
	if err != nil {
		t.Fatalf("Solve: %v", err)
	}
	for i, p := range res.Pools {
		o := plan.Pools[i]
		if got := o.Allocatable.CPUMillicores - o.WorkloadAllocatable.CPUMillicores; fmt.Sprint(o.DaemonSets) != "[kube-proxy aws-node]" || got != 125 {
			t.Errorf("pool %s runs %v (%dm), want kube-proxy and aws-node (125m) as the snapshot shows", p.Name, o.DaemonSets, got)
		}
	}

	// A DaemonSet that tolerates the taint is not warned about, and one that runs only off the tainted pool
	// stays off it.
	tolerant := strings.ReplaceAll(snapshot(t), `"tolerations": [
                    {
                        "key": "node.kubernetes.io/not-ready"`, `"tolerations": [
                    {
                        "operator": "Exists"
                    },
                    {
                        "key": "node.kubernetes.io/not-ready"`)
	res = mustRead(t, Input{Cluster: tolerant})
	for _, w := range res.Warnings {
		if w.Code == WarnDaemonsetUntolerated {
			t.Errorf("a DaemonSet tolerating every taint is warned about: %s", w.Message)
		}
	}
}
