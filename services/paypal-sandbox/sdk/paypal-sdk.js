/*
 * PayPal sandbox emulator: a stand-in for https://www.paypal.com/sdk/js (the v5 API the store uses),
 * served by @licensestore/paypal-sandbox at <mount>/sdk/js. For development and tests only.
 *
 * Differences from PayPal's script, on purpose: no iframes or popup (the button and the card inputs are
 * plain elements inside the container), and the buyer's choice in "PayPal's window" is a small select under
 * the button (default: approve at once). Scenario switches: `scenario=` on the script URL or a
 * `data-scenario` attribute (approve | cancel | decline | pending | error, and card-ineligible), or the
 * client id `sb-no-cards`.
 */
(() => {
  const script =
    document.currentScript || Array.from(document.querySelectorAll('script[src*="/sdk/js"]')).pop();
  const src = new URL(script.src, window.location.href);
  const base = src.origin + src.pathname.replace(/\/sdk\/js$/, '');
  const query = src.searchParams;
  const clientId = query.get('client-id') || '';
  const currency = (query.get('currency') || 'USD').toUpperCase();
  const components = (query.get('components') || 'buttons').split(',').map((name) => name.trim());
  const scenarios = [query.get('scenario'), script.getAttribute('data-scenario')]
    .filter(Boolean)
    .join(',')
    .split(',')
    .map((name) => name.trim());
  const CHOICES = [
    ['approve', 'Approve'],
    ['cancel', 'Cancel'],
    ['decline', 'Decline at capture'],
    ['pending', 'Pending review'],
    ['error', 'Provider error'],
  ];
  const defaultChoice = scenarios.find((name) => CHOICES.some(([value]) => value === name)) || 'approve';
  const cardsEligible = !scenarios.includes('card-ineligible') && clientId !== 'sb-no-cards';

  function paypalError(status, body) {
    const detail = body?.details?.[0];
    const error = new Error(
      detail ? `${detail.issue}: ${detail.description}` : body?.message || `HTTP ${status}`,
    );
    error.status = status;
    error.name = body?.name || 'Error';
    error.details = body?.details || [];
    error.debug_id = body?.debug_id;
    return error;
  }

  async function post(path, body) {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
    });
    const text = await response.text();
    let json = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = { message: text };
    }
    if (!response.ok) throw paypalError(response.status, json);
    return json;
  }

  /** CSS properties by either spelling PayPal takes: `borderRadius` or `font-size`. */
  function restyle(node, style) {
    for (const [name, value] of Object.entries(style)) {
      if (name.includes('-')) node.style.setProperty(name, value);
      else node.style[name] = value;
    }
  }

  function containerOf(container) {
    const element = typeof container === 'string' ? document.querySelector(container) : container;
    if (!element) throw new Error(`Document is ready and element ${container} does not exist`);
    return element;
  }

  function element(tag, properties, styles) {
    const node = document.createElement(tag);
    Object.assign(node, properties || {});
    // Style through the CSSOM: allowed under a CSP without 'unsafe-inline'.
    Object.assign(node.style, styles || {});
    return node;
  }

  function report(handler, error) {
    if (typeof handler === 'function') handler(error);
    else console.error('PayPal sandbox emulator:', error);
  }

  function checkOrderId(orderID) {
    if (typeof orderID !== 'string' || orderID === '') throw new Error('Expected an order id to be passed');
    return orderID;
  }

  // --- Buttons -------------------------------------------------------------------------------------
  const COLOURS = {
    gold: ['#ffc439', '#003087'],
    blue: ['#0070ba', '#ffffff'],
    silver: ['#eeeeee', '#003087'],
    white: ['#ffffff', '#003087'],
    black: ['#2c2e2f', '#ffffff'],
  };

  function Buttons(options) {
    const props = Object.assign({}, options);
    let wrapper = null;
    let button = null;
    let chooser = null;
    let busy = false;

    const notEmulated = (what) => () =>
      Promise.reject(new Error(`${what} is not emulated: create and capture orders on the server`));

    async function approve(orderID, choice) {
      const approval = await post(`/buyer/orders/${encodeURIComponent(orderID)}/approve`, {
        choice,
        currency,
      });
      const data = {
        orderID,
        payerID: approval.payerID,
        paymentID: null,
        billingToken: null,
        facilitatorAccessToken: approval.facilitatorAccessToken,
        paymentSource: 'paypal',
      };
      const actions = {
        // The buyer picks another funding source, which works (so an app that restarts on every
        // INSTRUMENT_DECLINED does not loop).
        restart: () => approve(orderID, 'approve'),
        redirect: (url) => window.location.assign(url),
        order: { get: notEmulated('actions.order.get'), capture: notEmulated('actions.order.capture') },
      };
      if (typeof props.onApprove === 'function') await props.onApprove(data, actions);
    }

    async function pay() {
      if (busy) return;
      busy = true;
      button.disabled = true;
      button.setAttribute('aria-busy', 'true');
      const choice = chooser.value;
      try {
        if (typeof props.onClick === 'function') {
          let rejected = false;
          const clicked = await props.onClick(
            { fundingSource: 'paypal' },
            {
              resolve: () => Promise.resolve(),
              reject: () => {
                rejected = true;
                return Promise.resolve();
              },
            },
          );
          if (rejected || clicked === false) return;
        }
        if (typeof props.createOrder !== 'function') {
          throw new Error('createOrder is required: the emulator does not emulate actions.order.create');
        }
        const orderID = checkOrderId(
          await props.createOrder(
            { paymentSource: 'paypal' },
            { order: { create: notEmulated('actions.order.create') } },
          ),
        );
        if (choice === 'cancel') {
          if (typeof props.onCancel === 'function') await props.onCancel({ orderID }, { redirect: () => {} });
          return;
        }
        await approve(orderID, choice);
      } catch (error) {
        report(props.onError, error);
      } finally {
        busy = false;
        if (button) {
          button.disabled = false;
          button.removeAttribute('aria-busy');
        }
      }
    }

    function render(container) {
      try {
        const target = containerOf(container);
        const style = props.style || {};
        const [background, text] = COLOURS[style.color] || COLOURS.gold;
        wrapper = element('div', { className: 'paypal-sandbox-buttons' }, { display: 'grid', gap: '6px' });
        button = element(
          'button',
          { type: 'button', textContent: 'PayPal', className: 'paypal-sandbox-button' },
          {
            background,
            color: text,
            border: style.color === 'white' ? '1px solid #555' : 'none',
            borderRadius: style.shape === 'pill' ? '23px' : '4px',
            height: `${style.height || 45}px`,
            width: '100%',
            font: 'italic 700 20px Helvetica, Arial, sans-serif',
            cursor: 'pointer',
          },
        );
        button.setAttribute('aria-label', 'PayPal');
        button.addEventListener('click', pay);
        chooser = element('select', { className: 'paypal-sandbox-choice' }, { font: '12px sans-serif' });
        for (const [value, label] of CHOICES)
          chooser.append(element('option', { value, textContent: label }));
        chooser.value = defaultChoice;
        // The page's own text colour: legible on the page's background in any theme.
        const label = element(
          'label',
          { textContent: 'Sandbox buyer: ', className: 'paypal-sandbox-buyer' },
          { font: '12px sans-serif', color: 'inherit', display: 'flex', gap: '4px', alignItems: 'center' },
        );
        label.append(chooser);
        wrapper.append(button, label);
        target.append(wrapper);
        if (typeof props.onInit === 'function') {
          props.onInit(
            {},
            {
              enable: () => {
                if (button) button.disabled = false;
                return Promise.resolve();
              },
              disable: () => {
                if (button) button.disabled = true;
                return Promise.resolve();
              },
            },
          );
        }
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    }

    return {
      isEligible: () => true,
      render,
      updateProps: (next) => Promise.resolve(Object.assign(props, next)),
      close() {
        wrapper?.remove();
        wrapper = button = chooser = null;
        return Promise.resolve();
      },
    };
  }

  // --- CardFields ----------------------------------------------------------------------------------
  const FIELDS = {
    name: {
      key: 'cardNameField',
      error: 'INVALID_NAME',
      placeholder: 'Cardholder name',
      complete: 'cc-name',
    },
    number: {
      key: 'cardNumberField',
      error: 'INVALID_NUMBER',
      placeholder: 'Card number',
      complete: 'cc-number',
    },
    expiry: { key: 'cardExpiryField', error: 'INVALID_EXPIRY', placeholder: 'MM/YY', complete: 'cc-exp' },
    cvv: { key: 'cardCvvField', error: 'INVALID_CVV', placeholder: 'CVV', complete: 'cc-csc' },
  };
  const LABELS = {
    name: 'Cardholder name',
    number: 'Card number',
    expiry: 'Expiration date',
    cvv: 'Security code',
  };
  const BRANDS = [
    [/^4/, 'visa', 'Visa', 'VISA', 3],
    [/^(5[1-5]|2(2[2-9][1-9]|[3-6]\d\d|7[01]\d|720))/, 'mastercard', 'Mastercard', 'MASTERCARD', 3],
    [/^3[47]/, 'american-express', 'American Express', 'AMEX', 4],
    [/^(6011|65|64[4-9])/, 'discover', 'discover', 'DISCOVER', 3],
  ];

  const digits = (value) => value.replace(/[\s-]/g, '');
  const brandOf = (number) => BRANDS.find(([pattern]) => pattern.test(number));

  function luhn(number) {
    let sum = 0;
    let double = false;
    for (let i = number.length - 1; i >= 0; i--) {
      let digit = Number(number[i]);
      if (double) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
      double = !double;
    }
    return sum % 10 === 0;
  }

  /** 'MM/YY', 'MM / YYYY' or 'MMYY' → { month, year } or null. */
  function parseExpiry(value) {
    const match = /^(\d{2})\s*\/?\s*(\d{2}|\d{4})$/.exec(value.trim());
    if (!match) return null;
    const month = Number(match[1]);
    const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    return month >= 1 && month <= 12 ? { month, year } : null;
  }

  function CardFields(options) {
    const props = Object.assign({}, options);
    const fields = {};

    const typed = (kind) => (fields[kind]?.input ? fields[kind].input.value : '');

    function check(kind) {
      const value = typed(kind);
      const number = digits(typed('number'));
      switch (kind) {
        case 'name':
          return { valid: value.trim().length > 0, potential: true };
        case 'number': {
          const clean = digits(value);
          const ok = /^\d{12,19}$/.test(clean) && luhn(clean) && Boolean(brandOf(clean));
          return {
            valid: ok,
            potential: /^\d{0,19}$/.test(clean),
            // Nothing typed is an invalid number, not a card of a brand PayPal does not take.
            ineligible: clean !== '' && luhn(clean) && !brandOf(clean),
          };
        }
        case 'expiry': {
          const expiry = parseExpiry(value);
          const now = new Date();
          const ok =
            expiry !== null &&
            (expiry.year > now.getFullYear() ||
              (expiry.year === now.getFullYear() && expiry.month >= now.getMonth() + 1));
          return { valid: ok, potential: /^[\d\s/]{0,7}$/.test(value) };
        }
        case 'cvv': {
          const size = brandOf(number)?.[4] || 3;
          return { valid: new RegExp(`^\\d{${size}}$`).test(value), potential: /^\d{0,4}$/.test(value) };
        }
      }
    }

    function state(emittedBy) {
      const errors = [];
      const result = {};
      for (const kind of Object.keys(FIELDS)) {
        const field = fields[kind];
        const verdict = check(kind);
        result[FIELDS[kind].key] = {
          isFocused: Boolean(field?.focused),
          isEmpty: typed(kind) === '',
          isValid: verdict.valid,
          isPotentiallyValid: verdict.potential,
        };
        // Name and CVV count only when rendered; number and expiry are always needed.
        const required = kind === 'number' || kind === 'expiry' || Boolean(field?.input);
        if (required && !verdict.valid)
          errors.push(verdict.ineligible ? 'INELIGIBLE_CARD_VENDOR' : FIELDS[kind].error);
      }
      const brand = brandOf(digits(typed('number')));
      return {
        cards: brand
          ? [
              {
                type: brand[1],
                niceType: brand[2],
                code: { code: brand[4] === 4 ? 'CID' : 'CVV', size: brand[4] },
              },
            ]
          : [],
        ...(emittedBy ? { emittedBy } : {}),
        isFormValid: errors.length === 0,
        errors,
        fields: result,
      };
    }

    function emit(kind, name) {
      const data = state(kind);
      for (const events of [fields[kind]?.options.inputEvents, props.inputEvents]) {
        if (events && typeof events[name] === 'function') events[name](data);
      }
    }

    /** The style for `selector` given to CardFields, with the field's own over it. */
    function styleOf(selector, entry) {
      return { ...props.style?.[selector], ...entry.options.style?.[selector] };
    }

    function field(kind) {
      return (fieldOptions) => {
        const entry = { options: fieldOptions || {}, input: null, focused: false };
        fields[kind] = entry;
        return {
          render(container) {
            try {
              if (!cardsEligible) throw new Error('Card fields are not eligible for this merchant');
              const input = element(
                'input',
                {
                  type: 'text',
                  name: `paypal-sandbox-${kind}`,
                  placeholder: entry.options.placeholder || FIELDS[kind].placeholder,
                  autocomplete: FIELDS[kind].complete,
                  inputMode: kind === 'name' ? 'text' : 'numeric',
                },
                {
                  width: '100%',
                  boxSizing: 'border-box',
                  height: '40px',
                  padding: '0 10px',
                  border: '1px solid #c4c4c4',
                  borderRadius: '4px',
                  font: 'inherit',
                },
              );
              // As PayPal's fields do: the merchant's `style` ('input', ':focus') over the defaults.
              restyle(input, styleOf('input', entry));
              const resting = input.style.cssText;
              input.setAttribute('aria-label', LABELS[kind]);
              input.addEventListener('input', () => emit(kind, 'onChange'));
              input.addEventListener('focus', () => {
                restyle(input, styleOf(':focus', entry));
                entry.focused = true;
                emit(kind, 'onFocus');
              });
              input.addEventListener('blur', () => {
                input.style.cssText = resting;
                entry.focused = false;
                emit(kind, 'onBlur');
              });
              input.addEventListener('keydown', (event) => {
                if (event.key === 'Enter') emit(kind, 'onInputSubmitRequest');
              });
              entry.input = input;
              containerOf(container).append(input);
              return Promise.resolve();
            } catch (error) {
              return Promise.reject(error);
            }
          },
          clear: () => {
            if (entry.input) entry.input.value = '';
          },
          focus: () => entry.input?.focus(),
          addClass: (name) => Promise.resolve(entry.input?.classList.add(name)),
          removeClass: (name) => Promise.resolve(entry.input?.classList.remove(name)),
          setAttribute: (name, value) => Promise.resolve(entry.input?.setAttribute(name, value)),
          removeAttribute: (name) => Promise.resolve(entry.input?.removeAttribute(name)),
          setMessage: () => {},
          close: () => {
            entry.input?.remove();
            entry.input = null;
            return Promise.resolve();
          },
        };
      };
    }

    async function submit(submitOptions) {
      if (!cardsEligible) throw new Error('Card fields are not eligible for this merchant');
      const current = state();
      if (!current.isFormValid) throw new Error(`Card fields are not valid: ${current.errors.join(', ')}`);
      try {
        const orderID = checkOrderId(await props.createOrder());
        const expiry = parseExpiry(typed('expiry'));
        const name = typed('name').trim() || submitOptions?.name;
        const card = {
          number: digits(typed('number')),
          expiry: `${expiry.year}-${String(expiry.month).padStart(2, '0')}`,
          ...(fields.cvv?.input ? { security_code: typed('cvv') } : {}),
          ...(name ? { name } : {}),
        };
        await post(`/buyer/orders/${encodeURIComponent(orderID)}/confirm-payment-source`, {
          payment_source: { card },
        });
        await props.onApprove({ orderID, liabilityShift: 'NO' });
      } catch (error) {
        report(props.onError, error);
        throw error;
      }
    }

    return {
      isEligible: () => cardsEligible,
      getState: () => Promise.resolve(state()),
      submit,
      NameField: field('name'),
      NumberField: field('number'),
      ExpiryField: field('expiry'),
      CVVField: field('cvv'),
    };
  }

  const FUNDING = { PAYPAL: 'paypal', CARD: 'card' };
  const namespace = {
    version: '5.0.0-sandbox-emulator',
    FUNDING,
    getFundingSources: () => Object.values(FUNDING),
    isFundingEligible: (source) => source === 'paypal' || (source === 'card' && cardsEligible),
  };
  if (components.includes('buttons')) namespace.Buttons = Buttons;
  if (components.includes('card-fields')) namespace.CardFields = CardFields;
  window[script.getAttribute('data-namespace') || 'paypal'] = namespace;
})();
