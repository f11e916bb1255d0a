fx_version 'cerulean'
game 'gta5'
lua54 'yes'

name 'stash'
description 'Uploads screenshots, photos, video and audio to Stash (a media CDN for FiveM servers)'
version '1.0.0'

server_scripts {
  'config.lua',
  'server.lua',
  'import.lua',
}
