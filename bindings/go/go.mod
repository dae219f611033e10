module libhiera.dev/hiera

go 1.19
