# See https://doc.ntp.org/documentation/4.2.6-series/confopt/#command-options for documentation
# Alternatively: type Ntp::Poll_interval = Variant[Integer, Pattern['']]
type Ntp::Poll_interval = Integer[3, 17]
