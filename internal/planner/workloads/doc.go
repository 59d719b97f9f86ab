// Package workloads reads Kubernetes objects (rendered manifests, a running cluster's snapshot) into the
// planner's workloads, DaemonSets and pools, so a plan starts from what a team deploys rather than from a
// hand-typed copy that drifts.
//
// Read decodes YAML or JSON documents ("---"-separated, List kinds unwrapped) with client-go's scheme into
// k8s.io/api types (sigs.k8s.io/yaml for YAML; a top-level sequence is a list of objects; strict decoding so
// unknown fields are warnings naming them, though kubectl apply and Helm refuse them), and turns
// every pod-owning object into a sizing.Workload or fit.DaemonSet (a built-in kind in a version no release
// serves, apps/V1 or a DaemonSet at v1, is refused as kubectl apply refuses it, not read as a custom kind):
//
//   - Deployment, StatefulSet, ReplicaSet and ReplicationController not controlled by another listed object,
//     Job and CronJob (the pods of one run: parallelism, at most completions), KEDA ScaledJobs (minReplicaCount
//     to maxReplicaCount Jobs of that many pods, autoscaled), bare Pods (not finished ones, not a DaemonSet's,
//     not those of an unlisted ReplicaSet of a listed Deployment, found as the cluster input finds them), DaemonSets, and
//     custom kinds with a pod template at spec.template, a spec with a containers list (Argo Rollouts,
//     OpenKruise; not a Karpenter NodePool or a Cluster API machine template; a Rollout's spec.workloadRef
//     names the Deployment whose template it runs), with the API server's defaults (replicas 1, maxSurge 25 %);
//     a custom kind's surge is read where it writes one (Deployment-shaped, OpenKruise CloneSet, an Argo Rollout's
//     strategy), else assumed at 100 % and said to be assumed (customSurge); an OpenKruise Advanced DaemonSet is
//     read as a DaemonSet (advancedDaemonSet);
//   - each pod's effective request by the planner's one rule (package pod: API defaulting, the namespace's
//     LimitRanges, pod-level resources, the RuntimeClass overhead, then component-helpers' PodRequests), and the
//     RuntimeClass's scheduling merged into the pod as its admission plugin does (runtimeClassScheduling);
//   - replica bounds from the HorizontalPodAutoscaler (autoscaling/v2, v1; minReplicas defaults to 1) or KEDA
//     ScaledObject (minReplicaCount 0, maxReplicaCount 100 by default; its paused-replicas annotation pins both
//     bounds, its paused annotation plans them at the maximum) that targets the workload by API group, kind and name (one the
//     API server or KEDA refuses, by package hpa's and keda's rules, is an error; one KEDA admits but cannot build a
//     scaler from leaves the target at its replicas field, with a warning; two HPAs on one target disable each other,
//     AmbiguousSelector, so it runs its replicas field, planned up to their largest maximum, with a warning); the PodDisruptionBudget whose selector matches its pods (one
//     listed on no workload says why in Result.Skipped, and one selecting no pod of its namespace, neither a read
//     workload's, a DaemonSet's, an operator resource's nor a filtered-out object's, is warned of: pdb.go); its volume claims per pod
//     (volumeClaimTemplates, named claims, generic ephemeral volumes); its priority;
//   - its scheduling constraints as written, each marked modelled (the node selector, required node affinity,
//     tolerations, a required hostname anti-affinity or a zone DoNotSchedule spread on the pods' own labels,
//     host ports, which keep two of its pods off one node) or carried with a warning naming the workload.
//
// Helm hooks (the helm.sh/hook annotation) are skipped unless asked for, and every object that is not a
// workload is listed in Result.Skipped with what it contributed. With Input.Cluster, the snapshot's nodes
// become measured pools (one per node group: the least roomy node's allocatable and capacity, the labels all its
// nodes carry and the taints any of them carries) and its running pods the existing load, grouped into their owners; an owner
// also in the manifests is read from the manifests. A DaemonSet read from running pods lands on the pools its
// pods run on, tolerating those pools' taints it does not (with a warning): its requests count where they are.
//
// An object of the manifests the API server refuses outright is an error naming it and what to write instead
// (validate.go): a name or namespace ValidateObjectMeta refuses, an apps/v1 selector missing, empty or not matching
// its template's labels, a Deployment strategy ValidateDeploymentStrategy refuses, a pod template whose resources
// ValidatePodTemplateSpec refuses or that has no containers (pod.SpecRefusals; what only the pods' admission refuses is a warning). Every problem is reported, up to maxErrors.
//
// Input is bounded (MaxBytes, MaxDocuments) and decoding runs on every core; errors are field errors on
// Manifests, Cluster, Include, Exclude or Overrides that name the document, object and field at fault.
package workloads
