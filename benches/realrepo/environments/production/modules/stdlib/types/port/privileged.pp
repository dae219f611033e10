# @summary Validate a priviliged port number
type Stdlib::Port::Privileged = Integer[1, 1023]
