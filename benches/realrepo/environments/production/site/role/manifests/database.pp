# Role database.
class role::database {
  include profile::base
  include profile::database
}
