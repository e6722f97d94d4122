// Element properties declared as tables. An element lists its properties once, each with its
// name, nick, blurb, type, range, default, whether it may change while PLAYING and where its value
// goes in the element's settings struct; the GParamSpecs, set_property, get_property, the settings'
// allocation and the per-frame snapshot follow from the table. Special cases stay in the table as
// hooks: a value refused with a warning (refuse) and work done once a value is stored (then).
//
//   const vkc::PropertyTable<Settings> kProperties{
//       [](GObject* o) -> Settings*& { return reinterpret_cast<GstFoo*>(o)->settings; },
//       {P::uint("count", "Count", "How many", 1, 16, 1, VKC_FIELD(count))}};
//   class_init: kProperties.install(gobject_class);  init: kProperties.create(G_OBJECT(self));
//   per frame:  const Settings settings = kProperties.snapshot(G_OBJECT(self));
#pragma once

#include <gst/gst.h>

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace vkc {

// What a GParamSpec is made of (the table's columns that do not depend on the settings type).
struct PropertySpec {
  enum Type { kBoolean, kUint, kInt, kDouble, kEnum, kString, kCustom };
  const char* name;
  const char* nick;
  const char* blurb;
  Type type;
  double minimum = 0, maximum = 0, default_value = 0;  // numbers; default_value for booleans, enums
  GType (*enum_type)() = nullptr;                      // kEnum
  const char* default_string = nullptr;                // kString
  // kCustom: makes the GParamSpec of any other value type
  GParamSpec* (*make_custom)(const char* name, const char* nick, const char* blurb,
                             GParamFlags flags) = nullptr;
  bool mutable_playing = true;  // GST_PARAM_MUTABLE_PLAYING, else GST_PARAM_MUTABLE_READY

  GParamSpec* make() const;
};

// Warns, like GObject warns of an out-of-range value, that `object`'s `pspec` refused `value`
// because `reason`, keeping `kept`: "name: property value reason, keeping kept".
void warn_refused(GObject* object, GParamSpec* pspec, const GValue* value, const std::string& reason,
                  const GValue* kept);

// One row of a table: the spec and how its value is stored in and read from the settings S.
template <class S>
struct Property {
  PropertySpec spec;
  std::function<void(S&, const GValue*)> store;
  std::function<void(const S&, GValue*)> load;
  // Optional. A non-empty reason refuses the value (checked before the object lock is taken): the
  // previous value stays and a warning says why.
  std::function<std::string(const GValue*)> refuse;
  // Optional. Called under the object lock once the value is stored, with the settings and
  // whether the value changed; the work it returns runs after the lock is released, on the
  // thread that set the property.
  std::function<std::function<void()>(GObject*, const S&, bool changed)> then;

  Property refusing(std::function<std::string(const GValue*)> hook) && {
    refuse = std::move(hook);
    return std::move(*this);
  }
  Property then_do(std::function<std::function<void()>(GObject*, const S&, bool)> hook) && {
    then = std::move(hook);
    return std::move(*this);
  }
  // GST_PARAM_MUTABLE_READY instead of GST_PARAM_MUTABLE_PLAYING: the flag only (GObject does not
  // look at it); an element that must refuse a change while running says so in a refuse hook.
  Property only_when_stopped() && {
    spec.mutable_playing = false;
    return std::move(*this);
  }

  // The same row for settings D that derive from S (tables shared by several elements).
  template <class D>
  Property<D> widen() const {
    static_assert(std::is_base_of_v<S, D>);
    Property<D> p{spec, store, load, refuse, {}};
    if (then) p.then = [then = then](GObject* o, const D& s, bool changed) { return then(o, s, changed); };
    return p;
  }
};

// Where a property's value goes: VKC_FIELD(roi.x) is the settings' member roi.x.
#define VKC_FIELD(member)       \
  [](auto& settings) -> auto& { \
    return settings.member;     \
  }

namespace detail {
// A settings member from and into a GValue of its property's type (gboolean and gint are one C++
// type: the GValue's type tells them apart).
template <class T>
void from_value(T& out, const GValue* v) {
  if constexpr (std::is_enum_v<T>)
    out = T(g_value_get_enum(v));
  else if constexpr (std::is_same_v<T, std::string>) {
    const gchar* str = g_value_get_string(v);
    out = str ? str : "";  // NULL is stored as ""
  } else if constexpr (std::is_same_v<T, guint>)
    out = g_value_get_uint(v);
  else if constexpr (std::is_same_v<T, gdouble>)
    out = g_value_get_double(v);
  else
    out = G_VALUE_HOLDS_BOOLEAN(v) ? g_value_get_boolean(v) : g_value_get_int(v);
}
template <class T>
void to_value(const T& in, GValue* v) {
  if constexpr (std::is_enum_v<T>)
    g_value_set_enum(v, gint(in));
  else if constexpr (std::is_same_v<T, std::string>)
    g_value_set_string(v, in.empty() ? nullptr : in.c_str());  // "" reads back as NULL
  else if constexpr (std::is_same_v<T, guint>)
    g_value_set_uint(v, in);
  else if constexpr (std::is_same_v<T, gdouble>)
    g_value_set_double(v, in);
  else if (G_VALUE_HOLDS_BOOLEAN(v))
    g_value_set_boolean(v, in);
  else
    g_value_set_int(v, in);
}
}  // namespace detail

// Builders of rows for the settings S, one per property type; `field` is a VKC_FIELD whose type
// must be the property's (a compile-time check).
template <class S>
struct Properties {
  template <class F>
  static Property<S> boolean(const char* name, const char* nick, const char* blurb, gboolean def, F field) {
    return row<gboolean>({name, nick, blurb, PropertySpec::kBoolean, 0, 1, double(def)}, field);
  }
  template <class F>
  static Property<S> uint(const char* name, const char* nick, const char* blurb, guint min, guint max,
                          guint def, F field) {
    return row<guint>({name, nick, blurb, PropertySpec::kUint, double(min), double(max), double(def)}, field);
  }
  template <class F>
  static Property<S> integer(const char* name, const char* nick, const char* blurb, gint min, gint max,
                             gint def, F field) {
    return row<gint>({name, nick, blurb, PropertySpec::kInt, double(min), double(max), double(def)}, field);
  }
  template <class F>
  static Property<S> real(const char* name, const char* nick, const char* blurb, gdouble min, gdouble max,
                          gdouble def, F field) {
    return row<gdouble>({name, nick, blurb, PropertySpec::kDouble, min, max, def}, field);
  }
  // A member of a C++ enum type E whose values are those of the GEnum `type`.
  template <class E, class F>
  static Property<S> enumeration(const char* name, const char* nick, const char* blurb, GType (*type)(),
                                 E def, F field) {
    static_assert(std::is_enum_v<E>);
    PropertySpec spec{name, nick, blurb, PropertySpec::kEnum, 0, 0, double(gint(def))};
    spec.enum_type = type;
    return row<E>(spec, field);
  }
  // A std::string member; "" reads back as NULL and NULL is stored as "".
  template <class F>
  static Property<S> string(const char* name, const char* nick, const char* blurb, const char* def, F field) {
    PropertySpec spec{name, nick, blurb, PropertySpec::kString};
    spec.default_string = def;
    return row<std::string>(spec, field);
  }
  // A member of any type T, whose GParamSpec `make` builds and which `from` and `to` convert.
  template <class T, class F>
  static Property<S> custom(const char* name, const char* nick, const char* blurb,
                            GParamSpec* (*make)(const char*, const char*, const char*, GParamFlags),
                            T (*from)(const GValue*), void (*to)(const T&, GValue*), F field) {
    PropertySpec spec{name, nick, blurb, PropertySpec::kCustom};
    spec.make_custom = make;
    static_assert(std::is_same_v<decltype(std::declval<F>()(std::declval<S&>())), T&>,
                  "the field's type does not match the property's type");
    return {spec, [field, from](S& s, const GValue* v) { field(s) = from(v); },
            [field, to](const S& s, GValue* v) { to(field(s), v); }};
  }

 private:
  template <class T, class F>
  static Property<S> row(const PropertySpec& spec, F field) {
    static_assert(std::is_same_v<decltype(std::declval<F>()(std::declval<S&>())), T&>,
                  "the field's type does not match the property's type");
    return {spec, [field](S& s, const GValue* v) { detail::from_value(field(s), v); },
            [field](const S& s, GValue* v) { detail::to_value(field(s), v); }};
  }
};

// An element's properties, with ids 1..n in table order, and its settings (object lock): the
// element's instance holds a S* that the table allocates (create) and frees (at finalize).
template <class S>
class PropertyTable {
 public:
  using SettingsOf = S*& (*)(GObject*);

  PropertyTable(SettingsOf settings, std::vector<Property<S>> rows)
      : settings_(settings), rows_(std::move(rows)) {}
  // `rows` followed by `more` (a shared table, such as the analysis elements' properties).
  template <class B>
  PropertyTable(SettingsOf settings, std::vector<Property<S>> rows, const std::vector<Property<B>>& more)
      : PropertyTable(settings, std::move(rows)) {
    for (const Property<B>& row : more) rows_.push_back(row.template widen<S>());
  }

  // class_init: installs the GParamSpecs and the class's set_property, get_property and
  // finalize (which frees the settings, then chains up to the finalize the class had).
  void install(GObjectClass* klass) const {
    g_type_set_qdata(G_TYPE_FROM_CLASS(klass), quark(), const_cast<PropertyTable*>(this));
    parent_finalize_ = klass->finalize;
    klass->set_property = set_property;
    klass->get_property = get_property;
    klass->finalize = finalize;
    for (guint i = 0; i < rows_.size(); ++i)
      g_object_class_install_property(klass, i + 1, rows_[i].spec.make());
  }

  // instance init: the default settings.
  void create(GObject* object) const { settings_(object) = new S(); }

  // A copy of the settings, taken under the object lock: what one frame uses.
  S snapshot(GObject* object) const {
    GST_OBJECT_LOCK(object);
    S copy = *settings_(object);
    GST_OBJECT_UNLOCK(object);
    return copy;
  }

 private:
  static GQuark quark() { return g_quark_from_static_string("vkcompute-property-table"); }
  static const PropertyTable& of(GParamSpec* pspec) {
    return *static_cast<const PropertyTable*>(g_type_get_qdata(pspec->owner_type, quark()));
  }
  const Property<S>* row(guint id) const { return id >= 1 && id <= rows_.size() ? &rows_[id - 1] : nullptr; }

  static void set_property(GObject* object, guint id, const GValue* value, GParamSpec* pspec) {
    const PropertyTable& table = of(pspec);
    const Property<S>* p = table.row(id);
    if (!p) {
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
      return;
    }
    const std::string reason = p->refuse ? p->refuse(value) : std::string();
    GValue old = G_VALUE_INIT;
    g_value_init(&old, G_PARAM_SPEC_VALUE_TYPE(pspec));
    std::function<void()> then;
    GST_OBJECT_LOCK(object);
    S& settings = *table.settings_(object);
    p->load(settings, &old);
    if (reason.empty()) {
      p->store(settings, value);
      if (p->then) then = p->then(object, settings, g_param_values_cmp(pspec, &old, value) != 0);
    }
    GST_OBJECT_UNLOCK(object);
    // Warned and done outside the lock.
    if (!reason.empty()) warn_refused(object, pspec, value, reason, &old);
    if (then) then();
    g_value_unset(&old);
  }

  static void get_property(GObject* object, guint id, GValue* value, GParamSpec* pspec) {
    const PropertyTable& table = of(pspec);
    const Property<S>* p = table.row(id);
    if (!p) {
      G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
      return;
    }
    GST_OBJECT_LOCK(object);
    p->load(*table.settings_(object), value);
    GST_OBJECT_UNLOCK(object);
  }

  static void finalize(GObject* object) {
    const auto* table = static_cast<const PropertyTable*>(g_type_get_qdata(G_OBJECT_TYPE(object), quark()));
    // A subclass of the element has no qdata of its own: look up its ancestors.
    for (GType t = G_OBJECT_TYPE(object); !table && t; t = g_type_parent(t))
      table = static_cast<const PropertyTable*>(g_type_get_qdata(t, quark()));
    S*& settings = table->settings_(object);
    delete settings;
    settings = nullptr;
    table->parent_finalize_(object);
  }

  SettingsOf settings_;
  std::vector<Property<S>> rows_;
  mutable void (*parent_finalize_)(GObject*) = nullptr;  // set once, in class_init
};

}  // namespace vkc
