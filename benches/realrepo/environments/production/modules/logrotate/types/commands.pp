type Logrotate::Commands = Variant[String,Array[String]]
