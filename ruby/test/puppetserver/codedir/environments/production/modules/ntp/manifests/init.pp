class ntp (
  Array[String] $servers,
  String $driftfile,
  Boolean $iburst = false,
  String $package = 'ntp',
) {
  $suffix = $iburst ? { true => ' iburst', default => '' }
  package { $package: ensure => installed }
  file { '/etc/ntp.conf':
    content => "driftfile ${driftfile}\n${servers.map |$s| { "server ${s}${suffix}\n" }.join('')}",
    require => Package[$package],
  }
}
