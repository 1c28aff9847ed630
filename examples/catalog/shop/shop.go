// Package shop is the tools of a small online shop's back office, a catalog of ten
// tools in five groups (products, orders, customers, refunds, shipping): the example of
// deferred loading. An application offers two of them up front and defers the others,
// which the model finds by searching (see examples/catalog).
//
// The shop's data is made up and kept in memory, so the example needs no network.
package shop

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime"
)

//go:generate go tool toolgen generate

// Store is the shop's data.
type Store struct {
	mu       sync.Mutex
	products []Product
	orders   map[string]*Order
	refunds  []Refund
}

// Product is an item of the catalog.
type Product struct {
	// SKU identifies the product.
	SKU string `json:"sku"`
	// Name is what the product is called.
	Name string `json:"name"`
	// PriceCents is the price in cents.
	PriceCents int `json:"priceCents"`
	// Stock is how many are in the warehouse.
	Stock int `json:"stock"`
}

// Order is a customer's order.
type Order struct {
	// ID identifies the order.
	ID string `json:"id"`
	// Customer is the customer's email address.
	Customer string `json:"customer"`
	// SKUs are the products ordered.
	SKUs []string `json:"skus"`
	// TotalCents is what the customer paid, in cents.
	TotalCents int `json:"totalCents"`
	// Status is pending, shipped, delivered or cancelled.
	Status string `json:"status"`
}

// Refund is money paid back on an order.
type Refund struct {
	// OrderID is the refunded order.
	OrderID string `json:"orderId"`
	// AmountCents is the amount paid back, in cents.
	AmountCents int `json:"amountCents"`
	// Reason is why.
	Reason string `json:"reason"`
}

// NewStore returns a Store with a few products and orders.
func NewStore() *Store {
	return &Store{
		products: []Product{
			{SKU: "MUG-01", Name: "Enamel mug", PriceCents: 1200, Stock: 40},
			{SKU: "TEE-02", Name: "Cotton T-shirt", PriceCents: 2500, Stock: 0},
			{SKU: "CAP-03", Name: "Wool cap", PriceCents: 1800, Stock: 12},
		},
		orders: map[string]*Order{
			"A1001": {ID: "A1001", Customer: "ada@example.com", SKUs: []string{"MUG-01", "CAP-03"}, TotalCents: 3000, Status: "delivered"},
			"A1002": {ID: "A1002", Customer: "bob@example.com", SKUs: []string{"TEE-02"}, TotalCents: 2500, Status: "pending"},
		},
	}
}

// order returns the order with the given id, or an error the model reads.
func (s *Store) order(id string) (*Order, error) {
	o, ok := s.orders[id]
	if !ok {
		return nil, runtime.ToolErrorf("there is no order %q", id)
	}
	return o, nil
}

// SearchProducts finds the catalog's products whose name contains a word.
//
//toolgen:tool readonly idempotent openworld=false group=products
//toolgen:param query desc="A word of the product's name, such as mug." minLength=1
func (s *Store) SearchProducts(query string) []Product {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Product
	for _, p := range s.products {
		if strings.Contains(strings.ToLower(p.Name), strings.ToLower(query)) {
			out = append(out, p)
		}
	}
	return out
}

// UpdateStock sets how many of a product are in the warehouse.
//
//toolgen:tool idempotent openworld=false destructive=false group=products
//toolgen:param sku desc="The product's SKU."
//toolgen:param stock desc="How many are in the warehouse now." minimum=0
func (s *Store) UpdateStock(sku string, stock int) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.products {
		if s.products[i].SKU == sku {
			s.products[i].Stock = stock
			return fmt.Sprintf("%s: %d in stock", sku, stock), nil
		}
	}
	return "", runtime.ToolErrorf("there is no product %q", sku)
}

// GetOrder returns an order: its customer, products, total and status.
//
//toolgen:tool readonly idempotent openworld=false group=orders
//toolgen:param id desc="The order's id, such as A1001."
func (s *Store) GetOrder(id string) (*Order, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.order(id)
	if err != nil {
		return nil, err
	}
	c := *o
	return &c, nil
}

// ListOrders lists a customer's orders, newest first.
//
//toolgen:tool readonly idempotent openworld=false group=orders,customers
//toolgen:param customer desc="The customer's email address." format=email
func (s *Store) ListOrders(customer string) []Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Order
	for _, o := range s.orders {
		if o.Customer == customer {
			out = append(out, *o)
		}
	}
	slices.SortFunc(out, func(a, b Order) int { return strings.Compare(b.ID, a.ID) })
	return out
}

// CancelOrder cancels an order that has not shipped yet.
//
//toolgen:tool destructive idempotent openworld=false group=orders
//toolgen:param id desc="The order's id."
func (s *Store) CancelOrder(id string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.order(id)
	if err != nil {
		return "", err
	}
	if o.Status != "pending" {
		return "", runtime.ToolErrorf("order %s is %s: only a pending order can be cancelled", id, o.Status)
	}
	o.Status = "cancelled"
	return "Order " + id + " is cancelled.", nil
}

// RefundRequest asks to pay money back on an order.
type RefundRequest struct {
	// OrderID is the order to refund.
	OrderID string `json:"orderId" tool:"minLength=1"`
	// AmountCents is the amount to pay back, in cents; at most the order's total.
	AmountCents int `json:"amountCents" tool:"minimum=1"`
	// Reason is why the customer wants their money back, in their words.
	Reason string `json:"reason" tool:"minLength=3,maxLength=300"`
}

// RefundOrder pays money back to the customer on a delivered order: all of it, or
// part, for a damaged or missing item.
//
// Use it when the customer asks for their money back.
//
//toolgen:tool destructive idempotent=false openworld=false group=refunds
func (s *Store) RefundOrder(req RefundRequest) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.order(req.OrderID)
	if err != nil {
		return "", err
	}
	paid := 0
	for _, r := range s.refunds {
		if r.OrderID == o.ID {
			paid += r.AmountCents
		}
	}
	if paid+req.AmountCents > o.TotalCents {
		return "", runtime.ToolErrorf("order %s totals %d cents and %d are refunded already: at most %d more", o.ID, o.TotalCents, paid, o.TotalCents-paid)
	}
	s.refunds = append(s.refunds, Refund{OrderID: o.ID, AmountCents: req.AmountCents, Reason: req.Reason})
	return fmt.Sprintf("Refunded %d cents on order %s.", req.AmountCents, o.ID), nil
}

// ListRefunds lists the refunds paid on an order.
//
//toolgen:tool readonly idempotent openworld=false group=refunds
//toolgen:param orderId desc="The order's id."
func (s *Store) ListRefunds(orderId string) []Refund {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Refund
	for _, r := range s.refunds {
		if r.OrderID == orderId {
			out = append(out, r)
		}
	}
	return out
}

// GetCustomer returns what the shop knows of a customer: how many orders they placed
// and what they spent.
//
//toolgen:tool readonly idempotent openworld=false group=customers
//toolgen:param email desc="The customer's email address." format=email
func (s *Store) GetCustomer(email string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, spent := 0, 0
	for _, o := range s.orders {
		if o.Customer == email {
			n++
			spent += o.TotalCents
		}
	}
	if n == 0 {
		return "", runtime.ToolErrorf("no customer %s", email)
	}
	return fmt.Sprintf("%s placed %d orders, %d cents in all.", email, n, spent), nil
}

// TrackShipment tells where an order's parcel is.
//
//toolgen:tool readonly idempotent openworld=true group=shipping
//toolgen:param orderId desc="The order's id."
func (s *Store) TrackShipment(ctx context.Context, orderId string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.order(orderId)
	if err != nil {
		return "", err
	}
	switch o.Status {
	case "delivered":
		return "Delivered to the customer's door.", nil
	case "shipped":
		return "In transit with the carrier.", nil
	}
	return "Not shipped yet: the order is " + o.Status + ".", nil
}

// ChangeShippingAddress changes where a pending order is sent.
//
//toolgen:tool destructive idempotent openworld=false group=shipping
//toolgen:param orderId desc="The order's id."
//toolgen:param address desc="The full new address, on one line." minLength=10
func (s *Store) ChangeShippingAddress(orderId, address string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, err := s.order(orderId)
	if err != nil {
		return "", err
	}
	if o.Status != "pending" {
		return "", runtime.ToolErrorf("order %s is %s: its address cannot change", orderId, o.Status)
	}
	return "Order " + orderId + " now ships to " + address + ".", nil
}
