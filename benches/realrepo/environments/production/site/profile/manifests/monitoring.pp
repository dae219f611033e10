# A monitoring server: checks from a unique merge, timers in systemd.
class profile::monitoring (
  Array[String[1]] $checks = [],
  String[1] $interval = '5min',
) {
  $targets = lookup('profile::monitoring::targets', Hash, 'hash', {})
  package { 'monitoring-plugins':
    ensure => installed,
  }
  $checks.each |String $check| {
    systemd::timer { "check-${check}.timer":
      timer_content   => "[Timer]\nOnCalendar=*:0/5\n",
      service_content => "[Service]\nType=oneshot\nExecStart=/usr/lib/nagios/plugins/check_${check}\n",
      active          => true,
      enable          => true,
    }
  }
  file { '/etc/monitoring/targets.conf':
    ensure  => file,
    content => epp('profile/settings.conf.epp', { 'settings' => $targets }),
  }
}
