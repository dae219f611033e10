type Logrotate::Path = Variant[Stdlib::UnixPath,Array[Stdlib::UnixPath]]
