# Role base.
class role::base {
  include profile::base
}
