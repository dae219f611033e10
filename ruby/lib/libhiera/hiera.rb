# frozen_string_literal: true

require 'json'
require_relative 'native'
require_relative 'wire'
require_relative 'handle'
require_relative 'host'

module Libhiera
  # What {Session#lookup} returns when nothing is found and no default was
  # given: compare with `equal?`. Not found is an outcome, not an exception.
  NOT_FOUND = Object.new
  def NOT_FOUND.inspect
    'Libhiera::NOT_FOUND'
  end

  def NOT_FOUND.to_s
    inspect
  end
  NOT_FOUND.freeze

  # An opened Hiera 5 configuration, as Puppet 7's (or, with `puppet: 8`,
  # Puppet 8's) `lookup()` sees it: the
  # global hiera.yaml, the environments directory and the environment. Its
  # file cache is shared by every session made from it.
  #
  #   hiera = Libhiera::Hiera.new(hiera_config: '/etc/puppetlabs/puppet/hiera.yaml',
  #                               environmentpath: '/etc/puppetlabs/code/environments',
  #                               environment: 'production')
  #   session = hiera.session('trusted' => { 'certname' => 'web01.example.com' }, 'facts' => {...})
  #   session.lookup('ntp::servers')                    # the value, or Libhiera::NOT_FOUND
  #   session.lookup('ntp::servers', default: [])      # the value, or []
  #   session.lookup('profile::users', merge: 'deep')
  #
  # Thread-safe: one Hiera and its sessions may be used by many threads.
  # Freed by the garbage collector, or by {#close}.
  class Hiera
    # `strict`: `"off"`, `"warning"` or `"error"`, as Puppet's `strict`
    # setting; without it, the default of the Puppet version (`"warning"`
    # for 7, `"error"` for 8). `puppet`: the Puppet the engine answers as,
    # 7 (Puppet 7.23, the default) or 8 (OpenVox/Puppet 8: `strict`
    # defaults to `"error"`, and an undefined variable in a v5 hierarchy's
    # paths, globs, uris or mapped_paths only warns). `limits`: a Hash of the bounds on one lookup to change
    # (`lookup_depth:`, `nested_lookups:`, `string_bytes:`,
    # `interpolated_bytes:`, `merge_entries:`, `nested_values:`; see the README), a lookup that
    # reaches one raises {LimitError}. `confine: true` reads only data and
    # config files inside the directories the configuration names (for facts
    # that cannot be trusted; a file outside raises {FileError}).
    # `basemodulepath`: an Array of directories of modules shared by all
    # environments (Puppet's `basemodulepath`; none by default), searched
    # after the environment's `modules` or where its `environment.conf` puts
    # `$basemodulepath`. `modulepath`: an Array, the environment's whole
    # modulepath (as Puppet's `--modulepath` or `environment.full_modulepath`):
    # `environment.conf` is then not read. Relative paths are taken from the
    # working directory.
    #
    # `codedir`: Puppet's setting, where a Hiera 3 global hiera.yaml without
    # a `datadir` reads data (default `/etc/puppet/code`).
    #
    # `working_directory`: where relative basemodulepath/modulepath
    # directories and the relative key paths of eyaml levels
    # (`pkcs7_private_key`, `pkcs7_public_key`) are taken from; nil (the
    # default): the process's working directory now.
    #
    # `environment_data_provider`: Puppet's (deprecated) setting of that name
    # from puppet.conf, the Puppet 4 data provider ('none', 'hiera',
    # 'function') of an environment whose environment.conf names none.
    #
    # `host_functions`: names of hierarchy functions libhiera has itself
    # (`yaml_data`, `json_data`, `hocon_data`, `eyaml_lookup_key`, ...) that
    # the `host` runs instead, as it runs a custom function: for a host whose
    # own function answers otherwise (a Puppet without a HOCON library, whose
    # `hocon_data` fails with its own error).
    #
    # `file_check_interval`: how many seconds (a Numeric, 0 to a year) a
    # `stat` of a configuration or data file is trusted before the file is
    # checked for changes again. nil or 0 (the default) is Puppet's own
    # behaviour: every new session checks every file it uses once. A server
    # compiling many catalogs may trust them longer, as Puppet Server trusts
    # a cached environment for its `environment_timeout`: a change is then
    # seen at most that long after it is made.
    #
    # `watch_files: false` turns off, for this configuration, the watcher
    # that learns of changed files from the kernel (Linux inotify; on by
    # default): every new session then `stat`s each file it uses once.
    # Either way a new session sees every change made before it started
    # (the README's "Files that change"); `HIERA_WATCH_FILES=0` in the
    # environment turns the watcher off for the whole process.
    #
    # `host`: an object that runs the hierarchy functions libhiera does not
    # have and receives Puppet's warnings (see {Host}); its calls run on the
    # thread that looks up, during the lookup, and may look up again.
    # `host_variables: true`: the host's `call` also answers the qualified
    # variables (`a::b`) a session does not have, as
    # `{'kind' => 'variable', 'key' => name}` (the value, or {NOT_FOUND}).
    # `host_scope: true`: it also answers the plain variables a session's
    # scope does not have, once per session, as `{'kind' => 'variable',
    # 'key' => name, 'scope' => 'top'}`: the variable of the session's own
    # scope (a compile's top scope, whatever the lookup's scope), or
    # {NOT_FOUND}; a session may then be made with an empty scope.
    def initialize(hiera_config: 'hiera.yaml', environmentpath: 'environments', environment: 'production', strict: nil,
                   limits: nil, confine: false, basemodulepath: nil, modulepath: nil, host: nil, codedir: nil, puppet: nil,
                   host_variables: false, working_directory: nil, environment_data_provider: nil,
                   host_functions: nil, host_scope: false, file_check_interval: nil, watch_files: true)
      options = { 'hiera_config' => hiera_config.to_s, 'environmentpath' => environmentpath.to_s,
                  'environment' => environment.to_s }
      options['strict'] = strict.to_s unless strict.nil?
      options['puppet'] = puppet unless puppet.nil?
      options['basemodulepath'] = Hiera.directories(basemodulepath, 'basemodulepath') unless basemodulepath.nil?
      options['modulepath'] = Hiera.directories(modulepath, 'modulepath') unless modulepath.nil?
      options['limits'] = limits.to_h { |k, v| [k.to_s, v] } unless limits.nil?
      options['confine'] = true if confine
      options['codedir'] = codedir.to_s unless codedir.nil?
      options['host_variables'] = true if host_variables
      options['host_scope'] = true if host_scope
      options['working_directory'] = working_directory.to_s unless working_directory.nil?
      options['environment_data_provider'] = environment_data_provider.to_s unless environment_data_provider.nil?
      options['host_functions'] = Array(host_functions).map(&:to_s) unless host_functions.nil?
      options['file_check_interval'] = file_check_interval unless file_check_interval.nil?
      options['watch_files'] = false unless watch_files
      json = Native.cstr(JSON.generate(options))
      @host = !host.nil?
      @handle = if host.nil?
                  Native.make(Native::FREE_HIERA) { |out, err| Native.hiera_open(json, out, err) }
                else
                  Native.make(Native::FREE_HIERA) { |out, err| Native.hiera_open_with_host(json, Host.struct(host), out, err) }
                end
    end

    # Whether lookups may call back into Ruby (a `host` was given).
    def host?
      @host
    end

    # A session: a scope (the node's variables: facts, trusted, top-scope
    # variables) bound to this configuration. It is a snapshot, like a
    # Puppet catalog compilation: make one per node compile.
    #
    # With `strict: true` a scope value the wire cannot carry exactly (an
    # object other than plain data, Symbols, Sensitive and SemVer) raises
    # {Wire::Unrepresentable}; by default it is passed as
    # `{"__type__": "<class>", "value": "<to_s>"}`.
    #
    # `plan: true`: the lookups of a plan (a hiera.yaml's `plan_hierarchy`
    # replaces its `hierarchy`). `hiera3_variables`: variables only a Hiera 3
    # global hiera.yaml and its data see (`calling_class`,
    # `calling_class_path`, `calling_module`, as Puppet's `Hiera::Scope`).
    def session(scope = {}, strict: false, plan: false, hiera3_variables: nil)
      Session.new(self, scope, strict: strict, plan: plan, hiera3_variables: hiera3_variables)
    end

    # #close frees the configuration (sessions made from it stay usable).
    include HandleOwner

    # A list of directories as hiera_open takes it (Strings or Pathnames).
    # @api private
    def self.directories(list, name)
      unless list.is_a?(Array)
        raise InvalidArgumentError.new("libhiera: #{name} must be an Array of directories", kind: 'invalid_argument')
      end

      # Relative directories are taken from Ruby's working directory (under
      # JRuby, Dir.chdir changes Ruby's, not the process's).
      list.map { |d| File.expand_path(d.to_s) }
    end
  end

  # One scope bound to a {Hiera}, and the caches that depend on it. Made by
  # {Hiera#session}. Thread-safe.
  class Session
    # The objects a host passed by reference (see {Host}), which lookups
    # give back as they are.
    attr_accessor :objects

    # true: answers go through the answer cache (Wire.load_answer), so
    # that the Strings (and numbers) in values are shared by the lookups
    # that gave the same answer text, as Puppet shares the values of the
    # data files it keeps; Arrays and Hashes are still new for each lookup.
    # One difference from Puppet: a String that interpolation or convert_to
    # made (new for each lookup in Puppet), or one that two environments'
    # data both hold, is one object for every lookup of that answer text in
    # the process (their encoding and frozen state are Puppet's), so only
    # code that changes a String argument in place could tell. For the
    # Puppet hand-off; overlays take it from their session. Off by
    # default: every value a lookup returns is then wholly new.
    # @api private
    attr_accessor :share_answers

    def initialize(hiera, scope, strict: false, plan: false, hiera3_variables: nil, parent: nil, deferred: nil)
      raise InvalidArgumentError.new('libhiera: the scope must be a Hash', kind: 'invalid_argument') unless scope.is_a?(Hash)

      @owned = nil # #own!
      @out = nil
      return overlay_of(parent, scope, strict, hiera3_variables, deferred) if parent

      json = Native.cstr(Wire.dump(scope, strict: strict))
      options = {}
      options['plan'] = true if plan
      options['hiera3_variables'] = hiera3_variables unless hiera3_variables.nil? || hiera3_variables.empty?
      @handle = if options.empty?
                  Native.make(Native::FREE_SESSION) { |out, err| hiera.use { |h| Native.hiera_session_new(h, json, out, err) } }
                else
                  text = Native.cstr(Wire.dump(options, strict: strict))
                  Native.make(Native::FREE_SESSION) do |out, err|
                    hiera.use { |h| Native.hiera_session_new_with(h, json, text, out, err) }
                  end
                end
      @host = hiera.host?
    end

    # Looks a key up, as Puppet's `lookup(key, merge, default)`:
    #
    # - `key`: a String, or an Array of names (the first found wins);
    # - `merge`: nil (lookup_options decide), `'first'`, `'unique'`, `'hash'`,
    #   `'deep'`, or a Hash (`{'strategy' => 'deep', 'knockout_prefix' => '--'}`);
    # - `default`: returned when nothing is found ({NOT_FOUND} when not
    #   given); like Puppet's, it is neither interpolated nor merged;
    # - `default_values_hash`, `override`: as `lookup()`'s options;
    # - `local_variables`: names of variables the lookup's scope has beyond
    #   the session's (a class's parameters and locals), asked of the
    #   configuration's host (`call` with `{'kind' => 'variable', 'key' =>
    #   name}`) when the lookup reads one; `hiera3_variables`: the lookup's
    #   own Hiera 3 calling variables. What reads them is not kept in the
    #   session's caches.
    #
    # Errors raise a {Libhiera::Error} subclass.
    def lookup(key, merge: nil, default: NOT_FOUND, default_values_hash: nil, override: nil, local_variables: nil,
               hiera3_variables: nil, scope_fields: nil)
      scope_fields ||= Session.scope_fields(local_variables, hiera3_variables)
      out = Native.out_pointer
      status = if scope_fields
                 lookup_text(request(key, merge, default_values_hash, override, scope_fields), out)
               elsif merge.nil? && default_values_hash.nil? && override.nil? && key.instance_of?(String)
                 if UTF8_COMPATIBLE[key.encoding] && key.valid_encoding?
                   # the common case: the key alone, passed as it is
                   if @host
                     @handle.use { |s| Native.hiera_lookup_key_host(s, key, key.bytesize, out) }
                   else
                     @handle.use { |s| Native.hiera_lookup_key(s, key, key.bytesize, out) }
                   end
                 else
                   lookup_text(Session.key_request(key), out)
                 end
               else
                 lookup_text(request(key, merge, default_values_hash, override), out)
               end
      answer(status, out, default)
    end

    # A lookup of a whole request (JSON text, as `hiera_lookup` takes it;
    # the hand-off makes it, {Puppet::CompileState#key_request}): the
    # value, or {NOT_FOUND}. Positional, for the hand-off's hot path (keyword
    # arguments cost a Hash per call in JRuby).
    # @api private
    def lookup_request(text)
      ptr = @owned
      if ptr
        # an owned session (#own!): its pointer and out-parameter used
        # directly, no Handle#use (two Mutex#synchronize and a block per
        # call in JRuby) and no Thread.current
        out = @out
        status = @host ? Native.hiera_lookup_text_host(ptr, text, out) : Native.hiera_lookup_text(ptr, text, out)
        return Wire.load_answer(Native.take(out), @objects) if status == Native::OK && @share_answers

        return answer(status, out, NOT_FOUND)
      end
      out = Native.out_pointer
      answer(lookup_text(text, out), out, NOT_FOUND)
    end

    # Makes this session one that a single owner uses, one thread at a time,
    # and never closes (the Puppet hand-off's: a compile's session is used by
    # the compile's thread): its lookups through {#lookup_request} and
    # {#lookup_keys_answers} call libhiera with its pointer directly
    # (Handle#pin) and an out-parameter of its own, without Handle#use's
    # locking per call. Its overlays are owned too. A nested lookup (from a
    # host callback) on the same thread is fine: each call's answer is read
    # before the outer call writes its own. Returns self.
    # @api private
    def own!
      @out ||= FFI::MemoryPointer.new(:pointer)
      @owned ||= @handle.pin
      self
    end

    # Whether {#own!} was called.
    # @api private
    def owned?
      @owned ? true : false
    end

    # An overlay session: this session's variables with `vars` over them,
    # as a Puppet class or resource scope adds its own variables to a
    # compile's top scope (`hiera3_variables`: the overlay's own; `plan` is
    # this session's). It shares this session's caches: what reads none of
    # the variables `vars` changes is computed once for both, so an overlay
    # costs what its own variables change. `strict:` as {Hiera#session}.
    #
    # `deferred`: names of more variables of the overlay, whose values the
    # configuration's host gives (its `call` with `{'kind' => 'variable',
    # 'key' => name}`) when a lookup first reads one: big values that data
    # seldom names (a class's parameters) need not cross at all.
    def overlay(vars, hiera3_variables: nil, strict: false, deferred: nil)
      Session.new(nil, vars, strict: strict, hiera3_variables: hiera3_variables, parent: self, deferred: deferred)
    end

    # Looks keys up as Puppet's automatic parameter lookup does (each key
    # alone: first found, no merge argument, no default), in order, in one
    # call. Returns their values ({NOT_FOUND} for a key not found). When a
    # lookup fails, the keys after it are not looked up and its error is
    # raised; with a block, each value is yielded (with its index) before
    # that, as it comes. `local_variables`, `hiera3_variables`: as {#lookup}.
    def lookup_keys(keys, local_variables: nil, hiera3_variables: nil, scope_fields: nil)
      scope_fields ||= Session.scope_fields(local_variables, hiera3_variables)
      values = []
      lookup_keys_answers(Session.keys_text(keys), scope_fields).each do |resp|
        raise key_error(resp) if resp.key?('error')

        value = if resp.key?('value')
                  @share_answers ? Wire.fresh(resp['value']) : resp['value']
                else
                  NOT_FOUND
                end
        yield value, values.size if block_given?
        values << value
      end
      values
    end

    # The JSON text of `keys` as {#lookup_keys} passes them
    # ({#lookup_keys_text}).
    # @api private
    def self.keys_text(keys)
      Native.cstr(JSON.generate(keys.map { |k| Wire.string(k.to_s) }))
    end

    # The answers of `hiera_lookup_keys` for keys already made into text
    # ({keys_text}), with the request fields `scope_fields` (or nil): an
    # Array of Hashes, each with its key's `"value"`, or an `"error"` (the
    # last: {key_error}), or neither (not found). Positional, for the
    # hand-off's hot path, which reads them in a loop. The answers may be
    # shared with other calls that got the same text (Wire.shared_answer):
    # the caller hands out copies of the values (Wire.fresh) and changes
    # nothing.
    # @api private
    def lookup_keys_answers(text, scope_fields)
      options = scope_fields ? "{#{scope_fields}}" : '{}'
      json = lookup_keys_json(text, options)

      (@share_answers && Wire.shared_answer(json)) || Wire.load(json, @objects)
    end

    # The JSON text of hiera_lookup_keys (or _host) for `text` and
    # `options`, raising the failure of a status other than OK.
    # @api private
    def lookup_keys_json(text, options)
      ptr = @owned
      if ptr # #own!: no Handle#use
        out = @out
        status = @host ? Native.hiera_lookup_keys_host(ptr, text, options, out) : Native.hiera_lookup_keys(ptr, text, options, out)
      else
        out = Native.out_pointer
        status = @handle.use do |s|
          @host ? Native.hiera_lookup_keys_host(s, text, options, out) : Native.hiera_lookup_keys(s, text, options, out)
        end
      end
      json = Native.take_written(status, out)
      raise failure(status, json) unless status == Native::OK

      json
    end

    # {lookup_keys_answers} as a table (Wire.answers_table: `[values,
    # kinds]`), for the hand-off's class batch; shared like those answers
    # when this session shares answers (the caller copies ANSWER_COPY
    # values with Wire.fresh), else the caller's own.
    # @api private
    def lookup_keys_table(text, scope_fields)
      # the options of the last fields asked, kept (one frozen pair: a
      # session may be shared by threads)
      memo = @options_memo
      options = if scope_fields.nil?
                  '{}'
                elsif memo && memo[0].equal?(scope_fields)
                  memo[1]
                else
                  (@options_memo = [scope_fields, "{#{scope_fields}}".freeze].freeze)[1]
                end
      json = lookup_keys_json(text, options)

      @share_answers ? Wire.answers_table(json, @objects) : Wire.table_of(Wire.load(json, @objects))
    end

    # The exception of an answer of {lookup_keys_answers} that has an
    # `"error"`.
    # @api private
    def key_error(resp)
      failure(Native::ERROR, JSON.generate(resp['error']))
    end

    # Like {#lookup}, but not found raises {NotFoundError}.
    def lookup!(key, **options)
      value = lookup(key, **options)
      return value unless value.equal?(NOT_FOUND)

      names = Array(key)
      raise NotFoundError.new(
        names.size == 1 ? "Function lookup() did not find a value for the name '#{names[0]}'" : "Function lookup() did not find a value for any of the names [#{names.map { |n| "'#{n}'" }.join(', ')}]",
        kind: 'lookup'
      )
    end

    # Looks many keys up in one call. `requests` holds keys (Strings or
    # Arrays of names) or Hashes `{key:, merge:, default:, default_values_hash:,
    # override:}`. Returns the values in order ({NOT_FOUND}, or the request's
    # `:default`, for a key not found); the first failed request raises its
    # error.
    def lookup_many(requests, merge: nil)
      reqs = requests.map do |r|
        if r.is_a?(Hash)
          r = r.transform_keys(&:to_sym)
          request(r.fetch(:key), r.fetch(:merge, merge), r[:default_values_hash], r[:override])
        else
          request(r, merge, nil, nil)
        end
      end
      text = "[#{reqs.join(',')}]"
      out = FFI::MemoryPointer.new(:pointer)
      buf = FFI::MemoryPointer.from_string(text)
      status = @handle.use { |s| @host ? Native.hiera_lookup_many_host(s, buf, out) : Native.hiera_lookup_many(s, buf, out) }
      json = Native.take(out)
      raise failure(status, json) unless status == Native::OK

      responses = Wire.load(json)
      responses.each_with_index.map do |resp, i|
        if resp.key?('value')
          resp['value']
        elsif resp['not_found']
          r = requests[i]
          r.is_a?(Hash) ? r.fetch(:default) { r.fetch('default', NOT_FOUND) } : NOT_FOUND
        else
          raise Libhiera.error_from(resp['error'])
        end
      end
    end

    # Every key this node can look up and its answer (`hiera-lookup
    # --all`): returns `[values, errors]`, `values` a Hash of key => value
    # sorted by key (keys not found left out), `errors` a Hash of key =>
    # {Libhiera::Error} for the keys whose lookup failed (the others are
    # still answered). Raises when the configuration cannot be read.
    def lookup_all
      out = FFI::MemoryPointer.new(:pointer)
      status = @handle.use { |s| @host ? Native.hiera_lookup_all_host(s, out) : Native.hiera_lookup_all(s, out) }
      json = Native.take(out)
      raise failure(status, json) unless status == Native::OK

      all = Wire.load(json)
      [all['values'], all['errors'].transform_values { |e| Libhiera.error_from(e) }]
    end

    # Puppet's `lookup --explain` text for a key.
    def explain(key, merge: nil)
      req = JSON.parse(request(key, merge, nil, nil)).merge('explain' => true)
      status, text = call(JSON.generate(req))
      case status
      when Native::OK, Native::NOT_FOUND then JSON.parse(text)['explain']
      else raise Native.error(status, text)
      end
    end

    include HandleOwner

    # Whether lookups may call back into Ruby.
    # @api private
    def host?
      @host
    end

    # The request fields (JSON text, without braces) that give a lookup its
    # scope's own variables, or nil for none. `known_variables`: how many
    # of the session's numbered variable names the host has checked (see
    # include/hiera.h, `hiera_lookup`).
    # @api private
    def self.scope_fields(local_variables, hiera3_variables, known_variables: nil)
      fields = []
      unless local_variables.nil? || local_variables.empty?
        fields << %("local_variables":#{JSON.generate(local_variables.map { |n| Wire.string(n.to_s) })})
      end
      fields << %("known_variables":#{Integer(known_variables)}) unless known_variables.nil?
      fields << %("hiera3_variables":#{Wire.dump(hiera3_variables)}) unless hiera3_variables.nil? || hiera3_variables.empty?
      fields.empty? ? nil : fields.join(',').freeze
    end

    # The request text of a lookup of `key` (a String) with no options,
    # memoized: the same keys are looked up in every compile. The cache holds
    # at most KEY_REQUESTS_MAX keys and is emptied when full. Keys eql? to
    # each other have the same bytes and, unless ASCII-only, the same
    # encoding: the same request.
    KEY_REQUESTS_MAX = 50_000
    @key_requests = {}

    if Handle::GVL_ATOMIC
      # MRI: Hash#[] and Hash#[]= with String keys are atomic under the GVL.
      # @api private
      def self.key_request(key)
        @key_requests[key] || new_key_request(key)
      end
    else
      # JRuby's Hash is not safe for concurrent use.
      @key_requests_lock = Mutex.new

      # @api private
      def self.key_request(key)
        @key_requests_lock.synchronize { @key_requests[key] || new_key_request(key) }
      end
    end

    # Encodings whose valid Strings are UTF-8 as they are.
    UTF8_COMPATIBLE = Hash.new(false).merge(Encoding::UTF_8 => true, Encoding::US_ASCII => true).freeze

    # The start of the request text of a lookup of `key` (a String of
    # UTF-8 text) with the merge `merge` (a String, or a Hash of Strings,
    # numbers, booleans and nils) and nothing else, up to the comma after
    # the merge (the request's other fields follow, then `}`), as #lookup
    # sends it; memoized per process like {key_request} (JSON generation and
    # keyword arguments cost more than the rest of a lookup's Ruby in
    # JRuby). nil for a merge it does not keep.
    # @api private
    def self.merge_request_prefix(key, merge)
      return nil unless merge.instance_of?(String) || (merge.instance_of?(Hash) && plain_merge?(merge))

      if Handle::GVL_ATOMIC
        (@merge_requests[merge] || {})[key] || new_merge_request(key, merge)
      else
        @key_requests_lock.synchronize { (@merge_requests[merge] || {})[key] || new_merge_request(key, merge) }
      end
    end
    @merge_requests = {}
    @merge_requests_size = 0
    @key_requests_lock ||= Mutex.new

    # @api private
    def self.plain_merge?(merge)
      merge.each_pair do |k, v|
        return false unless (k.instance_of?(String) || k.instance_of?(Symbol)) &&
                            (v.instance_of?(String) || v.instance_of?(Integer) || v == true || v == false || v.nil?)
      end
      true
    end

    # @api private
    def self.new_merge_request(key, merge)
      m = merge.is_a?(Hash) ? merge.transform_keys(&:to_s) : merge.to_s
      text = %({"key":#{JSON.generate(Wire.string(key))},"merge":#{JSON.generate(m)},).freeze
      if @merge_requests_size >= KEY_REQUESTS_MAX
        @merge_requests = {}
        @merge_requests_size = 0
      end
      @merge_requests_size += 1
      (@merge_requests[merge.frozen? ? merge : merge.dup.freeze] ||= {})[key] = text
    end

    # @api private
    def self.new_key_request(key)
      text = %({"key":#{JSON.generate(Wire.string(key))}}).freeze
      @key_requests.clear if @key_requests.size >= KEY_REQUESTS_MAX
      @key_requests[key] = text
    end

    private

    def overlay_of(parent, vars, strict, hiera3_variables, deferred)
      json = Native.cstr(Wire.dump(vars, strict: strict))
      options = {}
      options['hiera3_variables'] = hiera3_variables unless hiera3_variables.nil? || hiera3_variables.empty?
      options['deferred'] = deferred.map { |n| Wire.string(n.to_s) } unless deferred.nil? || deferred.empty?
      text = Native.cstr(Wire.dump(options, strict: strict))
      @handle = Native.make(Native::FREE_SESSION) do |out, err|
        parent.use { |p| Native.hiera_session_overlay(p, json, text, out, err) }
      end
      @host = parent.host?
      @objects = parent.objects
      @share_answers = parent.share_answers
      own! if parent.owned?
    end

    # The value of a lookup's answer: `status` and the out-parameter `out`
    # it wrote (freed here); `default` when not found.
    def answer(status, out, default)
      case status
      when Native::OK
        @share_answers ? Wire.load_answer(Native.take(out), @objects) : Wire.load(Native.take(out), @objects)
      when Native::NOT_FOUND # most automatic parameter lookups
        Native.take(out) # NULL: no explanation was asked for
        default
      else raise failure(status, Native.take_written(status, out))
      end
    end

    def lookup_text(text, out)
      if @host
        @handle.use { |s| Native.hiera_lookup_text_host(s, text, out) }
      else
        @handle.use { |s| Native.hiera_lookup_text(s, text, out) }
      end
    end

    # The exception for a failed lookup: the host's own, when a host
    # function raised it.
    def failure(status, text)
      error = Native.error(status, text)
      @host && Host.raised_for(error) || error
    end

    def request(key, merge, default_values_hash, override, scope_fields = nil)
      if merge.nil? && default_values_hash.nil? && override.nil? && key.is_a?(String)
        # the common case, without building a Hash
        return %({"key":#{JSON.generate(Wire.string(key))}#{scope_fields ? ",#{scope_fields}" : ''}})
      end
      if scope_fields
        text = request(key, merge, default_values_hash, override)
        return "#{text[0...-1]},#{scope_fields}}"
      end

      req = { 'key' => key.is_a?(Array) ? key.map { |k| Wire.string(k.to_s) } : Wire.string(key.to_s) }
      req['merge'] = merge.is_a?(Hash) ? merge.transform_keys(&:to_s) : merge.to_s unless merge.nil?
      req['default_values_hash'] = Wire.prepare(default_values_hash) unless default_values_hash.nil?
      req['override'] = Wire.prepare(override) unless override.nil?
      JSON.generate(req)
    end

    def call(text)
      out = FFI::MemoryPointer.new(:pointer)
      buf = FFI::MemoryPointer.from_string(text)
      status = @handle.use { |s| @host ? Native.hiera_lookup_host(s, buf, out) : Native.hiera_lookup(s, buf, out) }
      [status, Native.take(out)]
    end
  end
end
