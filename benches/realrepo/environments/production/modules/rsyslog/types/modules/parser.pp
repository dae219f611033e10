type Rsyslog::Modules::Parser = Enum[
  'pmciscoios',
  'pmlastmsg',
  'pmnormalize',
  'pmnull',
  'pmrfc3164',
  'pmrfc3164sd',
  'pmrfc5424',
]
