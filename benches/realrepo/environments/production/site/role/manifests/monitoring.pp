# Role monitoring.
class role::monitoring {
  include profile::base
  include profile::monitoring
}
