"""The pages, one blueprint per area (games, rounds, sharing, history), registered by the
factory; forms.py parses what the browser sends, screens.py and chart.py say what a page
shows, common.py holds what the areas share."""
