# frozen_string_literal: true

require 'fileutils'
require 'tmpdir'

# Puppet set up for a benchmark as ../shared/oracle/record sets it up: its
# settings and directories in a temporary directory (removed at exit), no
# modules but the repo's, `environmentpath` on the repo, `strict = warning`,
# the hiera data binding. Shared by benches/puppet_driver.rb and
# benches/compile/driver.rb.
module IsolatedPuppet
  # Initializes Puppet's settings for `environmentpath`; returns the
  # temporary directory (`prefix` names it).
  def self.boot(prefix, environmentpath)
    require 'puppet'
    tmp = Dir.mktmpdir(prefix)
    at_exit { FileUtils.rm_rf(tmp) }
    %w[conf var code log run public empty_modules].each { |d| FileUtils.mkdir_p(File.join(tmp, d)) }
    Puppet.initialize_settings([
      '--confdir', File.join(tmp, 'conf'),
      '--vardir', File.join(tmp, 'var'),
      '--codedir', File.join(tmp, 'code'),
      '--logdir', File.join(tmp, 'log'),
      '--rundir', File.join(tmp, 'run'),
      '--publicdir', File.join(tmp, 'public'),
      '--basemodulepath', File.join(tmp, 'empty_modules'),
      '--environmentpath', environmentpath,
    ])
    Puppet[:strict] = :warning
    Puppet[:strict_variables] = false
    Puppet[:data_binding_terminus] = 'hiera'
    tmp
  end
end
