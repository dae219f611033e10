# frozen_string_literal: true

require 'yaml'

# The File backend of Hiera 3's "Writing Custom Backends" guide, written
# from its description: for every data source of the hierarchy
# (`Backend.datasources`), the directory `<datadir>/<source>.d`
# (`Backend.datafile(:file, scope, source, "d")`) holds one file per key,
# whose content is the value, interpolated with `Backend.parse_answer`.
# Array resolution collects a value per source; hash resolution reads each
# file as YAML and merges with `Backend.merge_answer`.
class Hiera
  module Backend
    class File_backend
      def initialize
        Hiera.debug('Hiera File backend starting')
      end

      def lookup(key, scope, order_override, resolution_type, context)
        answer = nil
        found = false
        Hiera.debug("Looking up #{key} in File backend")
        Backend.datasources(scope, order_override) do |source|
          Hiera.debug("Hiera File backend: looking for data source '#{source}'")
          datadir = Backend.datafile(:file, scope, source, 'd') or next
          path = File.join(datadir, key)
          next unless File.exist?(path)

          data = File.read(path)
          found = true
          case resolution_type.is_a?(Hash) ? :hash : resolution_type
          when :array
            answer ||= []
            answer << Backend.parse_answer(data, scope, {}, context)
          when :hash
            answer ||= {}
            answer = Backend.merge_answer(Backend.parse_answer(YAML.safe_load(data), scope, {}, context), answer, resolution_type)
          else
            answer = Backend.parse_answer(data, scope, {}, context)
            break
          end
        end
        throw :no_such_key unless found
        answer
      end
    end
  end
end
