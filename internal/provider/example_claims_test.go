package provider

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// wordsRe matches the words of s in order, across the line wraps the CLI puts in a diagnostic.
func wordsRe(s ...string) *regexp.Regexp {
	parts := make([]string, len(s))
	for i, p := range s {
		ws := strings.Fields(p)
		for j, w := range ws {
			ws[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(ws, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// exampleClaim is one thing an example's comment says happens with one change to the example: the phrase of the
// comment that says it, the change (old → new text, once), and the error the plan then gives (nil: it plans).
type exampleClaim struct {
	phrase   string
	old, new string
	err      *regexp.Regexp
}

// testExampleClaims checks that the example at path says each claim (its phrase) and that the plan does what the
// claim says, so the comment cannot drift from the provider (explorer report items 2 and 3: "with
// max_replicas = 40 the plan would fail (KCAP-E2)" planned fine).
func testExampleClaims(t *testing.T, path string, claims []exampleClaim) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	comment := regexp.MustCompile(`\s*\n#\s*`).ReplaceAllString(string(src), " ")
	var steps []resource.TestStep
	for _, c := range claims {
		if !strings.Contains(comment, c.phrase) {
			t.Errorf("%s does not say %q", path, c.phrase)
		}
		if !strings.Contains(string(src), c.old) {
			t.Fatalf("%s has no %q to change", path, c.old)
		}
		steps = append(steps, resource.TestStep{Config: strings.Replace(string(src), c.old, c.new, 1), PlanOnly: true, ExpectNonEmptyPlan: true, ExpectError: c.err})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// TestAccKEDAScaledObject_exampleClaims: the api of the kubefit_keda_scaled_object example is bound by its zone
// spread (three zones of 3 nodes hold 63 pods), not by its 10 nodes (70): 63 plans, 64 fails KCAP-E3, 71 also
// KCAP-E2; the database claim holds.
func TestAccKEDAScaledObject_exampleClaims(t *testing.T) {
	const max = "max_replica_count = 20"
	testExampleClaims(t, "../../examples/resources/kubefit_keda_scaled_object/resource.tf", []exampleClaim{
		{phrase: "from 41 the database warns (KCAP-W2", old: max, new: "max_replica_count = 40"},
		{phrase: "from 51 a rollout at peak (51 + 13 surge pods = 64) does not fit the 63 (KCAP-W1", old: max, new: "max_replica_count = 63"},
		{phrase: "from 64 the plan fails (KCAP-E3: the largest safe count is 63, or 12 nodes", old: max, new: "max_replica_count = 64",
			err: wordsRe("KCAP-E3:", "the zones hold 63 pods in all, short of 64 replicas; the largest safe maxReplicaCount is 63, or raise the group's maximum size to 12 nodes")},
		{phrase: "the nodes alone would fail only from 71 (KCAP-E2)", old: max, new: "max_replica_count = 71",
			err: wordsRe("KCAP-E2:", "the peak needs 11 nodes but the group has at most 10")},
		{phrase: "With max_connections = 90 it fails on the database (KCAP-E4: 25 pods × 5 = 125 connections; the largest safe count is 14)",
			old: "max_connections = 500", new: "max_connections = 90", err: wordsRe("KCAP-E4:", "need 125 at peak; the largest safe maxReplicaCount is 14")},
	})
}

// TestAccHorizontalPodAutoscaler_exampleClaims: the web HPA of the example holds 70 pods on its 10 nodes, so 40
// plans (the comment said it failed KCAP-E2); the shared database fails first, from 42, and the group from 71.
func TestAccHorizontalPodAutoscaler_exampleClaims(t *testing.T) {
	const max = "max_replicas = 12"
	testExampleClaims(t, "../../examples/resources/kubefit_horizontal_pod_autoscaler/resource.tf", []exampleClaim{
		{phrase: "from 18 the capacity check below warns on the shared database (KCAP-W2", old: max, new: "max_replicas = 41"},
		{phrase: "from 42 the capacity check fails there (KCAP-E4: 53 + 8 pods × 5 = 305 > 300, naming 41 as the web's largest safe maxReplicas)",
			old: max, new: "max_replicas = 42",
			err: wordsRe("KCAP-E4:", "its clients need 305 at peak", "the largest safe maxReplicas of shop/web, the others unchanged, is 41", "raise its max_connections to 305")},
		{phrase: "from 49 the web's own check too (62 pods × 5 = 310)", old: max, new: "max_replicas = 49",
			err: wordsRe("KCAP-E4:", "62 pods", "need 310 at peak; the largest safe maxReplicas is 48")},
		{phrase: "from 71 the peak itself does (KCAP-E2, the largest safe maxReplicas 70, or 11 nodes)", old: max, new: "max_replicas = 71",
			err: wordsRe("KCAP-E2:", "cannot hold 71 replicas", "the largest safe maxReplicas is 70, or raise the group's maximum size to 11 nodes")},
	})
}

// TestAccCapacityCheck_exampleClaims: with the example's api at 30 the shared database fails (KCAP-E4), and its
// remedies are ones that pass: no maxReplicaCount of the worker is enough (the api's 38 pods alone need 190 of
// 150), so the api's largest safe count (17) and the max_connections the demand needs (230). The message said
// the worker's largest safe maxReplicaCount was 0, below its minimum of 1, which would not have helped.
func TestAccCapacityCheck_exampleClaims(t *testing.T) {
	testExampleClaims(t, "../../examples/resources/kubefit_capacity_check/resource.tf", []exampleClaim{
		{phrase: "with the api at 30, the api's largest safe maxReplicaCount (17), as no maxReplicaCount of the worker at or above its minimum of 1 is enough (the api's 38 pods alone need 190); or max_connections = 230",
			old: "max_replica_count = 10", new: "max_replica_count = 30",
			err: wordsRe("KCAP-E4:", "its clients need 230 at peak",
				"the largest safe maxReplicaCount of shop/api, the others unchanged, is 17",
				"no maxReplicaCount of shop/worker at or above its minimum of 1 is enough, the others unchanged: at 1 the clients still need 195",
				"raise its max_connections to 230")},
	})
}
