module github.com/kubefit/terraform-provider-kubefit

go 1.26.8

require (
	github.com/hashicorp/terraform-plugin-framework v1.19.0 // indirect
	github.com/hashicorp/terraform-plugin-framework-validators v0.19.0 // indirect
	github.com/hashicorp/terraform-plugin-go v0.31.0 // indirect
	github.com/hashicorp/terraform-plugin-testing v1.16.0 // indirect
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	k8s.io/api v0.37.2 // indirect
	k8s.io/apimachinery v0.37.2 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)
