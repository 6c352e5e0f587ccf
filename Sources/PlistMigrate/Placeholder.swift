import Migrations
