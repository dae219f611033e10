# Role bastion.
class role::bastion {
  include profile::base
  include profile::bastion
}
