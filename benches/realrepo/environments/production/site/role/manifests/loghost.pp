# Role loghost.
class role::loghost {
  include profile::base
  include profile::loghost
}
