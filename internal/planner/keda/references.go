package keda

import (
	"strconv"

	"github.com/kubefit/terraform-provider-kubefit/internal/planner/field"
)

// checkReferences resolves every name in a Check that refers to another entry of it: each node group and
// database is given once, each database client once, and the node group a summary names is one of the
// node groups given (when any are: without node groups the check of groups is not asked for). A miss names
// both sides: the entry that refers and the name it looks for, with the names there are.
func checkReferences(in Check) field.Errors {
	var errs field.Errors
	groups := map[string]int{}
	for i, g := range in.NodeGroups {
		if g.Name == "" {
			continue // Validate reports it
		}
		if j, dup := groups[g.Name]; dup {
			errs = append(errs, field.Invalid(field.NewPath("NodeGroups").At(i).Child("Name"), g.Name,
				"node group %s is given twice (node groups %d and %d); give each node group once", strconv.Quote(g.Name), j+1, i+1))
			continue
		}
		groups[g.Name] = i
	}
	if len(in.NodeGroups) > 0 {
		var names []string
		for i, g := range in.NodeGroups {
			if i == 10 {
				names = append(names, strconv.Itoa(len(in.NodeGroups)-10)+" more")
				break
			}
			names = append(names, strconv.Quote(g.Name))
		}
		for _, list := range []struct {
			p    field.Path
			sums []Summary
			hpa  bool
		}{{field.NewPath("ScaledObjects"), in.ScaledObjects, false}, {field.NewPath("HPAs"), in.HPAs, true}} {
			for i, s := range list.sums {
				if _, ok := groups[s.NodeGroup]; ok || s.NodeGroup == "" {
					continue
				}
				a := autoscaler{Summary: s, hpa: list.hpa}
				errs = append(errs, field.Invalid(list.p.At(i).Child("NodeGroup"), s.NodeGroup,
					"%s is placed on node group %s, which is not one of the node groups checked (%s); add that group's capacity to the node groups, or correct the name",
					a.label(), strconv.Quote(s.NodeGroup), field.JoinAnd(names)))
			}
		}
	}
	dbs := map[string]int{}
	for i, d := range in.Databases {
		p := field.NewPath("Databases").At(i)
		if j, dup := dbs[d.Name]; dup && d.Name != "" {
			errs = append(errs, field.Invalid(p.Child("Name"), d.Name,
				"database %s is given twice (databases %d and %d); give each database once, with all its clients", strconv.Quote(d.Name), j+1, i+1))
		} else {
			dbs[d.Name] = i
		}
		seen := map[string]int{}
		for k, c := range d.Clients {
			if j, dup := seen[c]; dup {
				errs = append(errs, field.Invalid(p.Child("Clients").At(k), c,
					"client %s of database %s is given twice (clients %d and %d), which would count its connections twice; give it once",
					field.Quote(c), strconv.Quote(d.Name), j+1, k+1))
				continue
			}
			seen[c] = k
		}
	}
	return errs
}

// knownClients lists the names a database client may take, at most ten of them.
func knownClients(all []autoscaler) string {
	if len(all) == 0 {
		return "there are none"
	}
	var names []string
	for i, a := range all {
		if i == 10 {
			names = append(names, strconv.Itoa(len(all)-10)+" more")
			break
		}
		names = append(names, a.label())
	}
	return "those are " + field.JoinAnd(names)
}
