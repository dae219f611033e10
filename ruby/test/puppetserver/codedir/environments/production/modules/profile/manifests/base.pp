class profile::base (
  String $motd,
  Array[String] $dns_servers,
  Hash $sysctl = {},
) {
  file { '/etc/motd': content => "${motd}\n" }
  file { '/etc/resolv.conf': content => $dns_servers.map |$s| { "nameserver ${s}\n" }.join('') }
  $sysctl.each |$k, $v| {
    notify { "sysctl ${k}": message => "${k} = ${v}" }
  }
}
