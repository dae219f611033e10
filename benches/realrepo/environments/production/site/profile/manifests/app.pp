# An application server: a systemd unit with settings deep-merged from the
# hierarchy, its log rotation.
class profile::app (
  String[1] $app_name = 'shop',
  String[1] $user = 'app',
  Hash $settings = {},
  Array[String[1]] $environment = [],
) {
  $jvm = lookup('profile::app::jvm_options', Array[String], 'unique', ['-server'])
  user { $user:
    ensure => present,
    system => true,
  }
  systemd::unit_file { "${app_name}.service":
    content => epp('profile/unit.epp', {
      'description' => "The ${app_name} application",
      'user'        => $user,
      'exec'        => "/opt/${app_name}/bin/run ${jvm.join(' ')}",
      'environment' => $environment,
    }),
    enable  => true,
    active  => true,
  }
  file { "/etc/${app_name}.conf":
    ensure  => file,
    content => epp('profile/settings.conf.epp', { 'settings' => $settings }),
  }
  logrotate::rule { $app_name:
    path   => "/var/log/${app_name}/*.log",
    rotate => 7,
  }
}
