# @summary Validate a Google Cloud object store URI
type Stdlib::ObjectStore::GSUri = Pattern[/\Ags:\/\/.*\z/]
