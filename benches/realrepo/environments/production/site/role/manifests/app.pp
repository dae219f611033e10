# Role app.
class role::app {
  include profile::base
  include profile::app
}
