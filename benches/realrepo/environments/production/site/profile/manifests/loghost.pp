# The central syslog server: receives over TCP (rsyslog::config::inputs in
# the role's data), keeps logs per host.
class profile::loghost (
  Stdlib::Absolutepath $log_dir = '/srv/log',
  Integer $retention_days = 30,
) {
  file { $log_dir:
    ensure => directory,
    mode   => '0750',
  }
  logrotate::rule { 'remote-hosts':
    path   => "${log_dir}/*/*.log",
    rotate => $retention_days,
  }
}
