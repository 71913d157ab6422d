[playlist]
File1=a.mp3
Title1=First
File3=http://example.com/x.ogg
file2=b.mp3
NumberOfEntries=3
Version=2
