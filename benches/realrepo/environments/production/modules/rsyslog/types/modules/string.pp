type Rsyslog::Modules::String = Enum[
  'smfile',
  'smfwd',
  'smtradfile',
  'smtradfwd',
]
