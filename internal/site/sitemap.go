package site

import (
	"encoding/xml"
)

// addSitemap serves /sitemap.xml listing every public page, and a
// /robots.txt pointing to it unless the build ships its own.
func (s *Site) addSitemap(origin string) error {
	type entry struct {
		Loc string `xml:"loc"`
	}
	doc := struct {
		XMLName xml.Name `xml:"urlset"`
		NS      string   `xml:"xmlns,attr"`
		URLs    []entry  `xml:"url"`
	}{NS: "http://www.sitemaps.org/schemas/sitemap/0.9"}
	// Pages that ask not to be indexed (a form's confirmation or problem page) are left out.
	for _, p := range s.Pages() {
		if !s.pages[p].noindex {
			doc.URLs = append(doc.URLs, entry{Loc: origin + p})
		}
	}
	body, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	s.addGenerated("sitemap.xml", append([]byte(xml.Header), body...))
	if _, ok := s.files["/robots.txt"]; !ok {
		s.addGenerated("robots.txt", []byte("User-agent: *\nAllow: /\n\nSitemap: "+origin+"/sitemap.xml\n"))
	}
	return nil
}

// addGenerated serves body at /name; its variants are made at the end of New.
func (s *Site) addGenerated(name string, body []byte) {
	f := &file{name: name, contentType: ContentType(name), cacheControl: cacheHTML}
	f.rewrite(body)
	s.files["/"+name] = f
}
