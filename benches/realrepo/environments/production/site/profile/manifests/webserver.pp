# A web server: nginx, its vhosts (deep-merged), log rotation.
class profile::webserver (
  String[1] $package = 'nginx',
  Hash $settings = {},
  Integer $worker_processes = $facts['processors']['count'],
) {
  $vhosts = lookup('profile::webserver::vhosts', Hash, 'deep', {})
  package { $package:
    ensure => installed,
  }
  file { '/etc/nginx/conf.d/00-settings.conf':
    ensure  => file,
    content => epp('profile/settings.conf.epp', { 'settings' => $settings + { 'worker_processes' => $worker_processes } }),
    require => Package[$package],
  }
  $vhosts.each |String $name, Hash $vhost| {
    file { "/etc/nginx/sites-enabled/${name}.conf":
      ensure  => file,
      content => epp('profile/settings.conf.epp', { 'settings' => $vhost }),
      require => Package[$package],
    }
  }
  logrotate::rule { 'nginx':
    path         => '/var/log/nginx/*.log',
    rotate       => lookup('profile::webserver::log_rotate', Integer, 'first', 14),
    rotate_every => 'day',
    compress     => true,
    postrotate   => 'systemctl reload nginx',
  }
}
