# ntpd on Debian-family nodes, chronyd on RedHat-family nodes; servers from
# a unique merge over the hierarchy.
class profile::base::time {
  $servers = lookup('profile::base::time::servers', Array[String[1]], 'unique')
  if $facts['os']['family'] == 'RedHat' {
    class { 'chrony':
      servers => $servers,
    }
  } else {
    class { 'ntp':
      servers => $servers,
    }
  }
}
