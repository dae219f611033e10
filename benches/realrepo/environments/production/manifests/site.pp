# Top-scope variables (what the profiles and Hiera interpolation see).
$site = 'example'
$zone = $facts['networking']['domain'] ? {
  /^dmz\./ => 'dmz',
  default  => 'prod',
}

# The role comes from the node's `role` fact (an external fact); every role
# includes profile::base.
node default {
  $role = pick($facts['role'], 'base')
  include "role::${role}"
}
