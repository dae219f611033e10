node default {
  include ntp
  include profile::base

  # explicit lookups with merges
  $users = lookup('profile::users', Hash, 'deep')
  $users.each |$name, $u| {
    user { $name:
      uid    => $u['uid'],
      groups => $u['groups'],
      shell  => $u['shell'],
    }
  }
  $packages = lookup('profile::packages', Array[String], 'unique', [])
  package { $packages: ensure => installed }
  notify { 'not found': message => lookup('profile::absent', String, 'first', 'the default') }
}
