# shellcheck shell=bash
# Finds or gets a Terraform-compatible CLI for the Makefile and .ci/run, and sets up the environment so that
# nothing reaches for the internet (no checkpoint calls, no CLI download by terraform-plugin-testing).
#
#   source .ci/terraform-cli.sh          # exports the variables below into the current shell
#   eval "$(.ci/terraform-cli.sh)"       # the same, from an executed script (prints `export` lines)
#
# The CLI, in this order:
#   1. $TF_ACC_TERRAFORM_PATH, when set and executable;
#   2. `terraform` on PATH;
#   3. `tofu` on PATH;
#   4. OpenTofu $KUBEFIT_TOFU_VERSION (default v1.10.6) built from the Go module proxy, once, into
#      .build/tofu, and reused afterwards (Terraform itself cannot be built from the module proxy).
#
# Exports:
#   TF_ACC_TERRAFORM_PATH  absolute path of the CLI (terraform-plugin-testing then never runs hc-install)
#   TF_ACC_PROVIDER_HOST   registry.opentofu.org for OpenTofu, registry.terraform.io for Terraform
#   CHECKPOINT_DISABLE=1   no version check against HashiCorp's checkpoint service
#   PATH                   prefixed with .build/cli, which holds a `terraform` symlink to the CLI (tfplugindocs)
# and unsets TF_ACC_TERRAFORM_VERSION, which would make terraform-plugin-testing download a CLI.
# Messages go to stderr; sourcing never changes the caller's shell options.

_kubefit_cli() {
  local root tofu_version tf real version_line start dir tmp

  # First line of `$1 version`, without pipelines (callers may run with pipefail, and head closing the pipe
  # early would make a good CLI look broken).
  _kubefit_cli_version() {
    local out
    out=$("$1" version 2>/dev/null) || true
    printf '%s' "${out%%$'\n'*}"
  }

  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || return 1
  tofu_version=${KUBEFIT_TOFU_VERSION:-v1.10.6}
  export CHECKPOINT_DISABLE=1
  unset TF_ACC_TERRAFORM_VERSION

  tf=
  if [ -n "${TF_ACC_TERRAFORM_PATH:-}" ]; then
    if [ -x "$TF_ACC_TERRAFORM_PATH" ] && [ ! -d "$TF_ACC_TERRAFORM_PATH" ]; then
      tf=$TF_ACC_TERRAFORM_PATH
    else
      echo "kubefit: TF_ACC_TERRAFORM_PATH=$TF_ACC_TERRAFORM_PATH is not an executable file; looking on PATH" >&2
    fi
  fi
  [ -n "$tf" ] || tf=$(command -v terraform 2>/dev/null) || tf=
  [ -n "$tf" ] || tf=$(command -v tofu 2>/dev/null) || tf=
  if [ -z "$tf" ]; then
    tf=$root/.build/tofu
    # (Builds without version.dev=no, as .ci/run made them before, report "<version>-dev": same source.)
    version_line=$(_kubefit_cli_version "$tf")
    if [ "$version_line" != "OpenTofu $tofu_version" ] && [ "$version_line" != "OpenTofu $tofu_version-dev" ]; then
      echo "kubefit: no terraform or tofu on PATH: building OpenTofu $tofu_version from the Go module proxy" \
        "into .build/tofu (once: minutes, more on a busy machine)" >&2
      start=$(date +%s)
      mkdir -p "$root/.build" || return 1
      # Outside any module, so the project's go.mod is left alone.
      tmp=$(mktemp -d) || return 1
      dir=$(cd "$tmp" && go mod download -json "github.com/opentofu/opentofu@$tofu_version" |
        sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
      rmdir "$tmp"
      if [ -z "$dir" ] || [ ! -d "$dir" ]; then
        echo "kubefit: could not download github.com/opentofu/opentofu@$tofu_version from the Go module proxy" >&2
        return 1
      fi
      echo "kubefit: module downloaded after $(($(date +%s) - start)) s; compiling ./cmd/tofu" >&2
      # Build to a temporary name, so an interrupted build never leaves a broken .build/tofu behind.
      if ! (cd "$dir" && go build -trimpath \
        -ldflags "-X github.com/opentofu/opentofu/version.dev=no" -o "$root/.build/tofu.partial" ./cmd/tofu); then
        rm -f "$root/.build/tofu.partial"
        echo "kubefit: building OpenTofu failed" >&2
        return 1
      fi
      mv -f "$root/.build/tofu.partial" "$tf" || return 1
      echo "kubefit: built .build/tofu in $(($(date +%s) - start)) s; later runs reuse it" >&2
    fi
  fi

  # Resolve symlinks (.build/cli/terraform points at the CLI and may come first on PATH).
  real=$(readlink -f "$tf") || return 1
  version_line=$(_kubefit_cli_version "$real")
  if [ -z "$version_line" ]; then
    echo "kubefit: $real does not answer 'version'; is it a Terraform-compatible CLI?" >&2
    return 1
  fi
  export TF_ACC_TERRAFORM_PATH=$real
  case $version_line in
    OpenTofu*) export TF_ACC_PROVIDER_HOST=registry.opentofu.org ;;
    *) export TF_ACC_PROVIDER_HOST=registry.terraform.io ;;
  esac

  mkdir -p "$root/.build/cli" || return 1
  ln -sfn "$real" "$root/.build/cli/terraform" || return 1
  case ":$PATH:" in
    *":$root/.build/cli:"*) ;;
    *) export PATH="$root/.build/cli:$PATH" ;;
  esac
  echo "kubefit: Terraform CLI: $real ($version_line), provider host $TF_ACC_PROVIDER_HOST" >&2
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  _kubefit_cli
else
  _kubefit_cli || exit 1
  for v in TF_ACC_TERRAFORM_PATH TF_ACC_PROVIDER_HOST CHECKPOINT_DISABLE PATH; do
    printf 'export %s=%q\n' "$v" "${!v}"
  done
  echo 'unset TF_ACC_TERRAFORM_VERSION'
fi
