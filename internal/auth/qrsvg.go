package auth

import (
	"fmt"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// qrQuietZone is the white border around a QR code, in modules (ISO/IEC
// 18004 asks for 4); qrModulePixels the size of a module.
const (
	qrQuietZone    = 4
	qrModulePixels = 4
)

// qrSVG renders text as a QR code in SVG, with high error correction as
// GoTrue's. The client shows it as a data: URI (it prefixes
// data:image/svg+xml;utf-8,), so the SVG holds no '#' or '%'.
func qrSVG(text string) (string, error) {
	code, err := qr.Encode(text, qr.H, qr.Auto)
	if err != nil {
		return "", err
	}
	n := code.Bounds().Dx()
	size := n + 2*qrQuietZone
	var path strings.Builder
	dark := func(x, y int) bool { r, _, _, _ := code.At(x, y).RGBA(); return r == 0 }
	for y := range n {
		for x := 0; x < n; x++ {
			if !dark(x, y) {
				continue
			}
			run := 1 // a row's dark modules side by side are one rectangle
			for x+run < n && dark(x+run, y) {
				run++
			}
			fmt.Fprintf(&path, "M%d %dh%dv1h-%dz", x+qrQuietZone, y+qrQuietZone, run, run)
			x += run - 1
		}
	}
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges">`+
		`<rect width="%d" height="%d" fill="white"/><path fill="black" d="%s"/></svg>`,
		size*qrModulePixels, size*qrModulePixels, size, size, size, size, path.String()), nil
}
