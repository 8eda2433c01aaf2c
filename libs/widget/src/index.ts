// @app/widget — the want-list widget's context: its Nest module (the script at /widget.js, the
// public want-list and card-suggestion routes, the admin settings). Nothing else is its contract.
export { WidgetModule } from './widget.module';
