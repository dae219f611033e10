# apt with the sources and pins from a hash merge of the hierarchy.
class profile::base::apt {
  include apt
  $sources = lookup('profile::base::apt::sources', Hash, 'hash', {})
  $sources.each |String $name, Hash $source| {
    apt::source { $name:
      * => $source,
    }
  }
  $pins = lookup('profile::base::apt::pins', Hash, 'hash', {})
  $pins.each |String $name, Hash $pin| {
    apt::pin { $name:
      * => $pin,
    }
  }
}
