# Validate the ensure parameter of a "directory" file resource
type Stdlib::Ensure::File::Directory = Enum['directory', 'absent']
