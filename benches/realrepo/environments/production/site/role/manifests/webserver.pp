# Role webserver.
class role::webserver {
  include profile::base
  include profile::webserver
}
