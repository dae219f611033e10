# The SSH jump host: stricter sshd (server_options in the role's data),
# allowed groups from a unique merge.
class profile::bastion (
  Array[String[1]] $allowed_groups = ['admins'],
) {
  $extra = lookup('profile::bastion::allowed_groups_extra', Array[String], 'unique', [])
  file { '/etc/ssh/allowed_groups':
    ensure  => file,
    content => join(unique($allowed_groups + $extra), "\n"),
  }
}
