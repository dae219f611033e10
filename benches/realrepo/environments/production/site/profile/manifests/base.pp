# What every node gets: time, timezone, SSH, syslog, logrotate, nsswitch,
# systemd, the OS's package manager or SELinux, packages, admin accounts.
class profile::base (
  Array[String[1]] $packages = [],
  Hash[String, Hash] $sysctl = {},
  Boolean $manage_selinux = true,
  String[1] $motd = 'Managed by Puppet',
) {
  # Explicit lookups with merges and defaults (not class parameters).
  $admins = lookup('profile::base::admins', Hash[String, Hash], 'deep', {})
  $extra_packages = lookup('profile::base::extra_packages', Array[String[1]], 'unique', [])
  $banner = lookup('profile::base::banner', String, 'first', "${motd} (${facts['networking']['fqdn']})")

  contain profile::base::time
  include timezone
  include ssh
  include nsswitch
  include logrotate
  include rsyslog
  include rsyslog::config
  include systemd

  case $facts['os']['family'] {
    'Debian': { contain profile::base::apt }
    'RedHat': {
      if $manage_selinux {
        include selinux
      }
    }
    default: {}
  }

  $all_packages = unique($packages + $extra_packages)
  package { $all_packages:
    ensure => installed,
  }

  $admins.each |String $name, Hash $user| {
    user { $name:
      ensure     => pick($user['ensure'], 'present'),
      uid        => $user['uid'],
      groups     => pick($user['groups'], []),
      shell      => pick($user['shell'], '/bin/bash'),
      managehome => true,
    }
  }

  $sysctl.each |String $key, Hash $setting| {
    file { "/etc/sysctl.d/60-${key}.conf":
      ensure  => file,
      content => "${key} = ${setting['value']}\n",
    }
  }

  file { '/etc/motd':
    ensure  => file,
    content => "${banner}\n",
  }
}
