# @summary Validate a HTTP status code
# @deprecated Use Stdlib::Http::Status
# @see Stdlib::Http::Status
type Stdlib::HttpStatus = Stdlib::Http::Status
