# A PostgreSQL server: settings (deep-merged), a drop-in for its unit,
# log rotation.
class profile::database (
  String[1] $version = '15',
  Hash $settings = {},
  Array[String[1]] $databases = [],
) {
  $service = "postgresql@${version}-main"
  package { "postgresql-${version}":
    ensure => installed,
  }
  file { "/etc/postgresql/${version}/main/conf.d/puppet.conf":
    ensure  => file,
    content => epp('profile/settings.conf.epp', { 'settings' => $settings }),
    require => Package["postgresql-${version}"],
  }
  systemd::dropin_file { 'limits.conf':
    unit    => "${service}.service",
    content => "[Service]\nLimitNOFILE=${lookup('profile::database::nofile', Integer, 'first', 65536)}\n",
  }
  $databases.each |String $db| {
    exec { "createdb ${db}":
      command => "/usr/bin/createdb ${db}",
      unless  => "/usr/bin/psql -lqt | cut -d '|' -f1 | grep -qw ${db}",
      user    => 'postgres',
      require => Package["postgresql-${version}"],
    }
  }
  logrotate::rule { 'postgresql':
    path   => "/var/log/postgresql/postgresql-${version}-main.log",
    rotate => 10,
  }
}
