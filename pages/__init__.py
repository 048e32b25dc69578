"""The app's page scripts, one per page, run by app.py's navigation; what they share is webeval_ui."""
