module github.com/diffdesk/diffdesk

go 1.26.8

require github.com/sergi/go-diff v1.4.0 // indirect
