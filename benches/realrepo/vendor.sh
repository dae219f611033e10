#!/bin/sh
# Re-creates environments/production/modules/ from git snapshots of the
# modules' public repositories (the commits README.md lists), keeping only
# what a catalog compile reads. Not run by the benchmark; kept so that the
# vendored tree can be checked or refreshed.
#
#   benches/realrepo/vendor.sh MIRROR_DIR
#
# MIRROR_DIR holds bare clones named owner+repo/repo (e.g.
# puppetlabs+puppetlabs-ntp/repo), with the tags below.
set -eu
mirror=${1:?usage: vendor.sh MIRROR_DIR}
here=$(cd "$(dirname "$0")" && pwd)
dest=$here/environments/production/modules
keep='^(manifests|data|files|hiera\.yaml|metadata\.json|lib|templates|types|functions|LICENSE|LICENSE\.md|NOTICE)$'

# module name, repository, tag
while read -r name repo tag; do
  [ -n "$name" ] || continue
  git_dir=$mirror/$(echo "$repo" | tr / +)/repo
  paths=$(git --git-dir="$git_dir" ls-tree --name-only "$tag" | grep -E "$keep")
  rm -rf "${dest:?}/$name"
  mkdir -p "$dest/$name"
  # shellcheck disable=SC2086
  git --git-dir="$git_dir" archive --format=tar "$tag" $paths | tar -x -C "$dest/$name"
  echo "$name $repo $tag $(git --git-dir="$git_dir" rev-parse "$tag^{commit}")"
done <<'LIST'
stdlib puppetlabs/puppetlabs-stdlib v9.7.0
concat puppetlabs/puppetlabs-concat v9.1.0
inifile puppetlabs/puppetlabs-inifile v6.2.0
apt puppetlabs/puppetlabs-apt v10.0.1
ntp puppetlabs/puppetlabs-ntp v11.0.0
chrony voxpupuli/puppet-chrony v4.0.0
ssh saz/puppet-ssh v13.1.0
systemd voxpupuli/puppet-systemd v8.3.1
logrotate voxpupuli/puppet-logrotate v8.0.0
nsswitch voxpupuli/puppet-nsswitch v3.2.0
rsyslog voxpupuli/puppet-rsyslog v7.3.0
selinux voxpupuli/puppet-selinux v5.0.0
selinux_core puppetlabs/puppetlabs-selinux_core v2.0.0
timezone saz/puppet-timezone v7.0.0
LIST
