# Struct data type for the Rsyslog Pipe module's Action options
type Rsyslog::Actions::Outputs::Ompipe = Struct[{
  pipe => String[1],
}]
